package extract

import "strings"

// controlledBy finds who holds a named place. Three shapes cover wire
// captions: a holder before the place ("rebel-held X", "the YPG-held
// neighbourhood of X", "X, an opposition-held town"), a passive after it
// ("X, held by <group>", "X ... in rebel hands") and an active verb ("<group>
// has controlled X", "<subject> took control of X").
func (d *doc) controlledBy(r *relSet, links []link) {
	// "Douma in Syria, an area controlled by rebels": the phrase describes
	// the chain's innermost place, not the country after it.
	inner := func(p *mention) *mention {
		for changed := true; changed; {
			changed = false
			for _, l := range links {
				if l.outer == p {
					p, changed = l.inner, true
					break
				}
			}
		}
		return p
	}
	add := func(p *mention, h holder, conf float64) {
		if h.group != nil {
			r.add(d.arg(p), ControlledBy, d.arg(h.group), conf)
		} else if h.value != "" {
			r.add(d.arg(p), ControlledBy, controllerArg(h.value), conf)
		}
	}
	for i := range d.toks {
		if h, end, ok := d.holderCue(i); ok {
			if p := d.heldTarget(i, end); p != nil {
				add(p, h, 0.75)
			}
		}
	}
	for _, p := range d.body(Place) {
		if h := d.heldAfter(p); h.ok() {
			add(inner(p), h, 0.7)
		}
		if h := d.heldByActive(p); h.ok() {
			add(p, h, 0.65)
		}
	}
	d.tookControl(r)
}

// A holder is who controls a place: a named group or a normalised value.
type holder struct {
	group *mention
	value string // ControllerRebels or ControllerGovernment
}

func (h holder) ok() bool { return h.group != nil || h.value != "" }

// holderCue reads a holder phrase that starts at token i and modifies what
// follows: "rebel-held", "rebel held", "opposition-controlled",
// "government-held", "<group>-held", "<group> stronghold". It returns the
// holder and the index of the first token after the phrase.
func (d *doc) holderCue(i int) (holder, int, bool) {
	var h holder
	j := i
	if m := d.mentionAtToken(i); m != nil && m.ts == i && m.typ == ArmedGroup {
		h.group, j = m, m.te
	} else {
		switch d.toks[i].lower {
		case "rebel", "rebels", "opposition", "insurgent", "jihadist", "islamist":
			h.value = ControllerRebels
		case "government", "regime", "army", "loyalist":
			h.value = ControllerGovernment
		default:
			return h, 0, false
		}
		j = i + 1
	}
	if j >= len(d.toks) {
		return h, 0, false
	}
	gap := d.text[d.toks[j-1].end:d.toks[j].start]
	switch w := d.toks[j].lower; {
	case (w == "held" || w == "controlled" || w == "run") && (gap == "-" || gap == " "):
		return h, j + 1, true
	case (w == "stronghold" || w == "strongholds" || w == "bastion") && gap == " ":
		return h, j + 1, true
	}
	return h, 0, false
}

// heldTarget finds the place a holder phrase [i, end) describes: the head of
// an apposition it stands in ("Waer, the last opposition-held district of
// Homs" -> Waer) or else the place it leads to through generic words ("the
// rebel-held besieged town of Douma" -> Douma). An unnamed area ("a
// rebel-held area of Aleppo") is nobody's.
func (d *doc) heldTarget(i, end int) *mention {
	// Apposition: ", a|an|the [adjectives] <cue>" right after a place.
	k := i - 1
	for k >= 0 && (appositiveAdjectives[d.toks[k].lower] || directionWords[d.toks[k].lower]) {
		k--
	}
	if k >= 1 && (d.toks[k].lower == "a" || d.toks[k].lower == "an" || d.toks[k].lower == "the") &&
		strings.Contains(d.text[d.toks[k-1].end:d.toks[k].start], ",") {
		if m := d.mentionAtToken(k - 1); m != nil && m.typ == Place {
			return m
		}
	}
	// Forward to the place: "town of", "besieged Syrian", "the".
	for j := end; j < len(d.toks) && j < end+6 && d.sent[j] == d.sent[i]; j++ {
		if m := d.mentionAtToken(j); m != nil && m.typ == Place && m.ts == j {
			return m
		}
		w := d.toks[j].lower
		if unnamedAreas[w] {
			// "the rebel-controlled area of Maarshureen town": the area of
			// a town is the town; that of a city is a part of it.
			if j+2 < len(d.toks) && d.toks[j+1].lower == "of" {
				if m := d.mentionAtToken(j + 2); m != nil && m.typ == Place && m.ts == j+2 &&
					(m.place == nil || m.place.Class == "P" && m.place.Population < 100000) {
					return m
				}
			}
			return nil
		}
		if !(fillerWord(w) || w == "of") {
			return nil
		}
	}
	return nil
}

// heldAfter reads a passive holder after a place: ", controlled by
// <group>", ", which is held by the jihadist alliance <group>", ", an area
// controlled by rebels", "... in rebel hands".
func (d *doc) heldAfter(p *mention) holder {
	for k := p.te; k < len(d.toks) && k < p.te+10 && d.sent[k] == d.sent[p.ts]; k++ {
		w := d.toks[k].lower
		if m := d.mentionAtToken(k); m != nil && m.typ == Place && m != p {
			return holder{}
		}
		if passiveHeld[w] && k+1 < len(d.toks) && d.toks[k+1].lower == "by" {
			return d.holderAt(k + 2)
		}
		if w == "hands" && k >= 2 && d.toks[k-2].lower == "in" {
			return holder{value: controllerWord(d.toks[k-1 : k])}
		}
	}
	return holder{}
}

// holderAt reads the holder named from token j on: a group after at most
// three descriptive words ("the jihadist alliance", "the Kurdish-led"), or
// rebels or government forces.
func (d *doc) holderAt(j int) holder {
	for skipped := 0; j < len(d.toks) && skipped <= 3; skipped++ {
		if m := d.mentionAtToken(j); m != nil && m.typ == ArmedGroup {
			return holder{group: m}
		}
		if v := controllerWord(d.toks[j:min(len(d.toks), j+4)]); v != "" {
			return holder{value: v}
		}
		if m := d.mentionAtToken(j); m != nil {
			j = m.te // "the Kurdish-led", "US-backed": a place inside a modifier
			continue
		}
		if isUpperStart(d.toks[j].text) && !commonWords[d.toks[j].lower] {
			return holder{}
		}
		j++
	}
	return holder{}
}

// heldByActive reads "<group> has controlled X", "<group> have held X
// since", "<group> controls X".
func (d *doc) heldByActive(p *mention) holder {
	k := p.ts - 1
	if k < 1 || !activeHeld[d.toks[k].lower] {
		return holder{}
	}
	k--
	for k >= 0 && (d.toks[k].lower == "has" || d.toks[k].lower == "have" || d.toks[k].lower == "had" || d.toks[k].lower == "still") {
		k--
	}
	if k < 0 {
		return holder{}
	}
	if m := d.mentionAtToken(k); m != nil && m.typ == ArmedGroup && m.te == k+1 {
		return holder{group: m}
	}
	return holder{}
}

// controllerWord maps "rebels", "opposition", "forces loyal to ...",
// "government" to a normalised controller value.
func controllerWord(toks []token) string {
	if len(toks) == 0 {
		return ""
	}
	switch toks[0].lower {
	case "rebels", "rebel", "opposition", "insurgents", "insurgent":
		return ControllerRebels
	case "government", "regime", "pro":
		return ControllerGovernment
	case "forces", "troops":
		if len(toks) >= 3 && toks[1].lower == "loyal" {
			return ControllerGovernment
		}
	}
	return ""
}

// tookControl reads "<subject> took control of X", "<subject> recaptured
// X" and "... recaptured the site", where the site is the place just named.
func (d *doc) tookControl(r *relSet) {
	for i := 0; i < len(d.toks); i++ {
		w := d.toks[i].lower
		var k int
		switch {
		case controlVerbs[w] && i+2 < len(d.toks) && d.toks[i+1].lower == "control" && d.toks[i+2].lower == "of":
			k = i + 3
		case captureVerbs[w]:
			k = i + 1
		default:
			continue
		}
		var place *mention
		for ; k < len(d.toks) && k < i+8 && d.sent[k] == d.sent[i]; k++ {
			if m := d.mentionAtToken(k); m != nil {
				if m.typ == Place && m.ts == k {
					place = m
				}
				break
			}
			tw := d.toks[k].lower
			if (tw == "site" || tw == "city" || tw == "town" || tw == "village" || tw == "capital") && (k+1 >= len(d.toks) || d.toks[k+1].lower != "of") {
				// "recaptured the site": the place just named; "seized the
				// city", "retook the town", "regained control of the
				// capital": the town just named, not the
				// region or country after it ("Kidal, northern Mali") or
				// in a modifier ("the Rwanda-backed M23").
				for _, m := range d.body(Place) {
					if m.end <= d.toks[i].start && d.sent[m.ts] == d.sent[i] && (tw == "site" || placeRank(m) < 5) {
						place = m
					}
				}
				break
			}
			if !(fillerWord(tw) || tw == "of") || unnamedAreas[tw] {
				break
			}
		}
		if place == nil {
			continue
		}
		group := d.nearestActor(i)
		var ctl string
		if group == nil {
			ctl, group = d.sentenceSubject(i)
		}
		switch {
		case group != nil:
			r.add(d.arg(place), ControlledBy, d.arg(group), 0.65)
		case ctl != "":
			r.add(d.arg(place), ControlledBy, controllerArg(ctl), 0.65)
		}
	}
}

// nearestActor returns the armed group nearest before token i in its
// sentence that can be the subject of i's verb: "the KNLA's 6th Brigade
// and allied forces took control of", "after the MNDAA said it had
// captured". A group after "by", "from", "against" or "with" is no
// subject.
func (d *doc) nearestActor(i int) *mention {
	for k := i - 1; k >= 0 && d.sent[k] == d.sent[i]; k-- {
		m := d.mentionAtToken(k)
		if m == nil || m.typ != ArmedGroup {
			continue
		}
		j := m.ts - 1
		for j >= 0 && (d.toks[j].lower == "the" || directionWords[d.toks[j].lower] || appositiveAdjectives[d.toks[j].lower]) {
			j--
		}
		if j >= 0 {
			switch d.toks[j].lower {
			case "by", "from", "against", "with":
				k = m.ts
				continue
			}
		}
		return m
	}
	return nil
}

// sentenceSubject classifies who acts in the sentence of token i: rebels,
// government forces, or a named group.
func (d *doc) sentenceSubject(i int) (string, *mention) {
	s := d.sent[i]
	for k := range i {
		if d.sent[k] != s {
			continue
		}
		if m := d.mentionAtToken(k); m != nil && m.typ == ArmedGroup {
			return "", m
		}
		switch d.toks[k].lower {
		case "rebel", "rebels", "opposition", "insurgents", "insurgent":
			return ControllerRebels, nil
		case "government", "regime", "army", "soldiers", "troops":
			if k > 0 && (d.toks[k-1].lower == "syrian" || d.toks[k-1].lower == "pro") || d.toks[k].lower == "government" || d.toks[k].lower == "regime" {
				return ControllerGovernment, nil
			}
		}
	}
	return "", nil
}
