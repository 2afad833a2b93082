package extract

import (
	"slices"
	"strings"
)

// relations derives the caption's facts from its mentions and the sentence
// patterns wire captions use.
func (d *doc) relations() []Relation {
	r := &relSet{}
	d.bodies = make(map[EntityType][]*mention, 8) // mentions are final from here on
	for _, m := range d.mentions {
		if !m.credit {
			continue
		}
		switch m.typ {
		case Photographer:
			r.add(d.photo(), PhotographedBy, d.arg(m), 0.9)
		case Agency:
			r.add(d.photo(), DistributedBy, d.arg(m), 0.9)
		}
	}
	for _, m := range d.takenOn() {
		r.add(d.photo(), TakenOn, d.arg(m), 0.85)
	}
	links, chains := d.placeStructure()
	d.placeInContainers(links) // first: it gives the places it places their ids
	for _, l := range links {
		r.add(d.arg(l.inner), LocatedIn, d.arg(l.outer), 0.8)
	}
	if m := d.depictedPlace(chains, links); m != nil {
		r.add(d.photo(), DepictsPlace, d.arg(m), 0.75)
	}
	depicted := d.depictedPeople()
	for _, m := range depicted {
		r.add(d.photo(), DepictsPerson, d.arg(m), 0.7)
	}
	d.memberOf(r)
	d.leadersOf(r, depicted)
	d.aliases(r)
	d.controlledBy(r, links)
	d.eventAt(r)
	return r.list
}

// placeInContainers gives a place the gazetteer does not know the
// coordinates of the place the caption puts it in, when that is smaller
// than a country: "Kin Ma village, Pauk township" is placed at Pauk. Links
// come inner first along a chain, so walking them backwards places an
// unknown district before the village in it.
func (d *doc) placeInContainers(links []link) {
	for _, l := range slices.Backward(links) {
		in, out := l.inner, l.outer
		if in.place != nil || in.container != nil {
			continue
		}
		switch {
		case out.place != nil && !out.place.IsCountry():
			in.container = out.place
		case out.container != nil:
			in.container = out.container
		default:
			continue
		}
		// The id says where: a name the gazetteer lacks may be villages
		// in two provinces, and the place one caption puts it in must not
		// decide where another caption's lies ("place:sharan:in:adm1:SY.09").
		if in.id != "" {
			in.id += ":in:" + strings.TrimPrefix(in.container.ID, "place:")
		}
	}
}

// An arg is a relation argument: its text as written and its canonical id.
type arg struct{ text, id string }

func (d *doc) arg(m *mention) arg    { return arg{d.text[m.start:m.end], m.id} }
func (d *doc) photo() arg            { return arg{PhotoSubject, "photo"} }
func roleArg(text string) arg        { return arg{text, "role:" + strings.ToLower(text)} }
func controllerArg(value string) arg { return arg{value, "controller:" + slug(value)} }

// A relSet collects a caption's relations once each. A caption has a
// dozen or so, so a scan beats a map.
type relSet struct {
	list []Relation
}

func (r *relSet) add(s arg, rel RelationType, o arg, conf float64) {
	if s.text == o.text && s.id == o.id {
		return
	}
	for _, have := range r.list {
		if have.Rel == rel && have.Subj == s.text && have.Obj == o.text {
			return
		}
	}
	r.list = append(r.list, Relation{Subj: s.text, Rel: rel, Obj: o.text, SubjID: s.id, ObjID: o.id, Confidence: conf})
}

// body returns the description's mentions of one type, in order. Once
// relations begin the mentions no longer change, so each list is built once.
func (d *doc) body(typ EntityType) []*mention {
	if out, ok := d.bodies[typ]; ok {
		return out
	}
	var out []*mention
	for _, m := range d.mentions {
		if m.typ == typ && !m.credit {
			out = append(out, m)
		}
	}
	if d.bodies != nil {
		d.bodies[typ] = out
	}
	return out
}

// takenOn picks the date of the pictured scene: "Picture taken <date>",
// else the last full date of the first sentence that has one, with the
// same day written again in that sentence (a dateline's "JUNE 25"), else
// the first dated mention anywhere; never a date the caption says the
// picture was released or uploaded on, and never a bare month.
func (d *doc) takenOn() []*mention {
	dates := d.body(Date)
	var usable []*mention
	for _, m := range dates {
		if m.date.precision == "month" && !m.date.hasYear {
			continue
		}
		before := d.text[max(0, m.start-80):m.start]
		if k := strings.LastIndexAny(before, ".!?"); k >= 0 && !isAbbrevEnd(d.text, max(0, m.start-80)+k) {
			before = before[k+1:] // this sentence only
		}
		if strings.Contains(strings.ToLower(before), "picture taken") || strings.Contains(strings.ToLower(before), "photo taken") {
			return []*mention{m}
		}
		if releaseCue(before) {
			continue
		}
		// "the 04 August blast": a date used as a modifier is an event's, not the picture's.
		if !m.date.hasYear && m.te < len(d.toks) && d.text[m.end:d.toks[m.te].start] == " " && !isUpperStart(d.toks[m.te].text) &&
			d.toks[m.te].lower != "in" && d.toks[m.te].lower != "at" && d.toks[m.te].lower != "on" {
			continue
		}
		usable = append(usable, m)
	}
	if len(usable) == 0 {
		return nil
	}
	first := d.sent[usable[0].ts]
	var pick *mention
	for _, m := range usable {
		if d.sent[m.ts] != first {
			break
		}
		if pick == nil || m.date.precision == "day" || pick.date.precision != "day" {
			pick = m
		}
	}
	// "NAIROBI, KENYA - JUNE 25: ... on June 25, 2024": Getty's dateline
	// and the sentence write the scene's one date twice.
	picked := []*mention{pick}
	for _, m := range usable {
		if m != pick && d.sent[m.ts] == first && m.date.precision == "day" && pick.date.precision == "day" &&
			m.date.value[len(m.date.value)-5:] == pick.date.value[len(pick.date.value)-5:] {
			picked = append(picked, m)
		}
	}
	return picked
}
