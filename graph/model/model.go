package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/cayleygraph/quad"

	"github.com/capgraph/capgraph/extract"
)

// Provenance is what [Quads] records about the run that produced an
// extraction, on the caption's named graph.
type Provenance struct {
	ExtractorVersion string    // extract.Version; "" writes no version quad
	Time             time.Time // when the facts were generated; zero writes no time quad
}

// ContentHash returns the marker that the store's Load keeps on each caption
// graph to detect unchanged captions: "sha256:" and the hex SHA-256 of the
// model version, the extractor version and the extraction's JSON form.
func ContentHash(x extract.Extraction, extractorVersion string) string {
	h := sha256.New()
	h.Write([]byte(Version + "\x00" + extractorVersion + "\x00"))
	b, err := json.Marshal(x)
	if err != nil { // only NaN or Inf coordinates: hash what we can
		b = []byte(x.ID + "\x00" + x.Text)
	}
	h.Write(b)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Quads returns the quads that represent one extraction, without
// duplicates, in a fixed order: first the caption's own quads, labelled with
// its named graph ([GraphIRI]), then the descriptions of the entities it
// names, labelled [EntitiesGraph]. docs/model.md describes the model.
func Quads(x extract.Extraction, p Provenance) []quad.Quad {
	own, desc := SplitQuads(x, p, ContentHash(x, p.ExtractorVersion))
	return append(own, desc...)
}

// SplitQuads returns the caption's own quads and the entity descriptions
// apart, given the extraction's [ContentHash] (which a loader has already
// computed to skip unchanged captions).
func SplitQuads(x extract.Extraction, p Provenance, hash string) (own, desc []quad.Quad) {
	b := newBuilder(x, p)
	b.hash = hash
	b.build()
	return b.out, b.desc
}

type builder struct {
	x     extract.Extraction
	p     Provenance
	g     quad.IRI // the caption's graph
	photo quad.IRI
	out   []quad.Quad // the caption graph
	desc  []quad.Quad // entity descriptions, in the entities graph
	seen  map[quad.Quad]struct{}
	ents  map[string]int // entity id -> index of its first entity
	runes []rune
	hash  string // ContentHash(x, p.ExtractorVersion)
}

func newBuilder(x extract.Extraction, p Provenance) *builder {
	return &builder{
		x: x, p: p,
		g:     quad.IRI(GraphIRI(x.ID)),
		photo: quad.IRI(PhotoIRI(x.ID)),
		seen:  make(map[quad.Quad]struct{}, 128), // a wire caption makes about 85
		ents:  make(map[string]int, len(x.Entities)),
	}
}

func (b *builder) add(s quad.Value, p quad.IRI, o quad.Value) {
	q := quad.Quad{Subject: s, Predicate: p, Object: o, Label: b.g}
	if _, ok := b.seen[q]; ok {
		return
	}
	b.seen[q] = struct{}{}
	b.out = append(b.out, q)
}

// DescriptionPredicates are every predicate describe writes. The loader
// reads a stored description by these, subject and predicate together,
// instead of by subject alone, which would also visit every caption-graph
// fact about the entity and so cost time in proportion to the store.
var DescriptionPredicates = []quad.IRI{
	RDFType, SchemaName, CapgraphGroupType, OWLSameAs, SchemaGeo,
	SchemaLatitude, SchemaLongitude, CapgraphGeoPrecision, SchemaContainedInPlace,
	GeoHasGeometry, GeoAsWKT, WGS84Lat, WGS84Long,
}

// describe adds a quad of an entity description to the shared entities
// graph; p must be one of DescriptionPredicates.
func (b *builder) describe(s quad.Value, p quad.IRI, o quad.Value) {
	q := quad.Quad{Subject: s, Predicate: p, Object: o, Label: quad.IRI(EntitiesGraph)}
	if _, ok := b.seen[q]; ok {
		return
	}
	b.seen[q] = struct{}{}
	b.desc = append(b.desc, q)
}

func str(s string) quad.Value { return quad.String(s) }

func (b *builder) build() {
	x := b.x
	// The graph: provenance and the idempotence marker.
	b.add(b.g, ProvWasDerivedFrom, b.photo)
	if b.p.ExtractorVersion != "" {
		b.add(b.g, CapgraphExtractorVersion, str(b.p.ExtractorVersion))
	}
	if !b.p.Time.IsZero() {
		b.add(b.g, ProvGeneratedAtTime, quad.TypedString{
			Value: quad.String(b.p.Time.UTC().Format(time.RFC3339)), Type: XSDDateTime})
	}
	b.add(b.g, CapgraphContentHash, str(b.hash))

	// The photo: a Photograph, and an ImageObject, the class that
	// schema:caption is defined on.
	b.add(b.photo, RDFType, SchemaPhotograph)
	b.add(b.photo, RDFType, SchemaImageObject)
	b.add(b.photo, SchemaCaption, str(x.Text))
	b.add(b.photo, SchemaIdentifier, str(x.ID))

	// The caption as a NIF context, which the mentions' offsets count in.
	ctx := quad.IRI(string(b.g) + "#context")
	if len(x.Entities) > 0 {
		if b.runes == nil {
			b.runes = []rune(x.Text)
		}
		b.add(ctx, RDFType, NIFContext)
		b.add(ctx, NIFIsString, str(x.Text))
		b.add(ctx, NIFBeginIndex, NonNegInt(0))
		b.add(ctx, NIFEndIndex, NonNegInt(len(b.runes)))
	}

	for i, e := range x.Entities {
		if _, ok := b.ents[e.ID]; !ok && e.ID != "" {
			b.ents[e.ID] = i
		}
	}
	// Entities and their mentions.
	for i, e := range x.Entities {
		b.entity(e)
		m := quad.IRI(string(b.g) + "#m" + strconv.Itoa(i))
		b.add(m, NIFReferenceContext, ctx)
		b.add(m, NIFBeginIndex, NonNegInt(e.Start))
		b.add(m, NIFEndIndex, NonNegInt(e.End))
		b.add(m, NIFAnchorOf, str(e.Text))
		if e.Type != extract.Date {
			b.add(m, ITSTaIdentRef, b.entityIRI(e))
		}
		b.add(m, CapgraphConfidence, Decimal(e.Confidence))
	}
	b.credit()

	// Relations: the fact itself, and a statement node with its confidence.
	// Statement nodes are numbered without gaps (relations that cannot be
	// written are skipped), so that a reader can enumerate them.
	linked := make(map[quad.Value]bool)
	n := 0
	for _, r := range x.Relations {
		s, p, o, ok := b.relation(n, r)
		if !ok {
			continue
		}
		if s == b.photo {
			linked[o] = true
		}
		b.add(s, p, o)
		st := quad.IRI(string(b.g) + "#r" + strconv.Itoa(n))
		n++
		b.add(st, RDFSubject, s)
		b.add(st, RDFPredicate, p)
		b.add(st, RDFObject, o)
		b.add(st, CapgraphConfidence, Decimal(r.Confidence))
	}
	// Everything else the caption names is at least mentioned by the photo.
	for _, e := range x.Entities {
		switch e.Type {
		case extract.Date, extract.Photographer, extract.Agency:
			continue
		}
		if iri := b.entityIRI(e); !linked[iri] {
			b.add(b.photo, SchemaMentions, iri)
		}
	}
}

func (b *builder) entityIRI(e extract.Entity) quad.IRI {
	id := e.ID
	if id == "" {
		id = strings.ToLower(string(e.Type)) + ":" + strings.ToLower(e.Text)
	}
	return quad.IRI(EntityIRI(id))
}

var entityClass = map[extract.EntityType]quad.IRI{
	extract.Person:       SchemaPerson,
	extract.Photographer: SchemaPerson,
	extract.Place:        SchemaPlace,
	extract.ArmedGroup:   SchemaOrganization,
	extract.Organization: SchemaOrganization,
	extract.Agency:       SchemaNewsMedia,
	extract.Event:        SchemaEvent,
}

func (b *builder) entity(e extract.Entity) {
	class, ok := entityClass[e.Type]
	if !ok {
		return // dates are literals on the photo
	}
	n := b.entityIRI(e)
	b.describe(n, RDFType, class)
	name := entityName(e)
	b.describe(n, SchemaName, str(name))
	switch e.Type {
	case extract.ArmedGroup:
		b.describe(n, RDFType, CapgraphArmedGroup)
		if e.GroupType != "" {
			b.describe(n, CapgraphGroupType, str(e.GroupType))
		}
	case extract.Place:
		b.place(n, e, name) // with its Wikidata item among its links
		return
	}
	if e.Wikidata != "" {
		b.describe(n, OWLSameAs, quad.IRI(wikidataBase+e.Wikidata))
	}
}

// A gazetteerPlace is what a place's description says, whether a caption
// names the place or it sits in the admin chain of one that does: the
// two describe one node alike.
type gazetteerPlace struct {
	id, name          string
	geoNamesID        int
	wikidata          string
	latitude, long    float64
	class, code       string
	placedInContainer bool
}

// describePlace writes p's types, name, GeoNames link and point.
func (b *builder) describePlace(n quad.IRI, p gazetteerPlace) {
	b.describe(n, RDFType, SchemaPlace)
	switch {
	case strings.HasPrefix(p.code, "PCL"):
		b.describe(n, RDFType, SchemaCountry)
	case p.class == "A":
		b.describe(n, RDFType, SchemaAdministrativeArea)
	}
	b.describe(n, SchemaName, str(p.name))
	if p.geoNamesID != 0 {
		b.describe(n, OWLSameAs, quad.IRI(geoNamesBase+strconv.Itoa(p.geoNamesID)+"/"))
	}
	if p.wikidata != "" {
		b.describe(n, OWLSameAs, quad.IRI(wikidataBase+p.wikidata))
	}
	if p.latitude != 0 || p.long != 0 {
		// One point, in the terms of schema.org, W3C WGS84 and GeoSPARQL:
		// stores index the one they know.
		lat, long := Decimal(p.latitude), Decimal(p.long)
		geo := quad.IRI(string(n) + "#geo")
		b.describe(n, SchemaGeo, geo)
		b.describe(n, GeoHasGeometry, geo)
		b.describe(n, WGS84Lat, lat)
		b.describe(n, WGS84Long, long)
		b.describe(geo, RDFType, SchemaGeoCoordinates)
		b.describe(geo, RDFType, GeoGeometry)
		b.describe(geo, SchemaLatitude, lat)
		b.describe(geo, SchemaLongitude, long)
		b.describe(geo, GeoAsWKT, WKTPoint(p.latitude, p.long))
		b.describe(geo, CapgraphGeoPrecision, str(p.precision()))
	}
}

// precision says what a place's point is: "capital" for a country (it
// stands at its capital, or its largest place), "admin-area" for an
// administrative division (GeoNames' point for it), "settlement" for a
// populated place, "feature" for a site (an air base, a camp, a
// mountain), "approximate" for a place of capgraph's own table (placed by
// hand), and "container" for a place the gazetteer does not know, placed
// at the place the caption puts it in.
func (p gazetteerPlace) precision() string {
	switch {
	case p.placedInContainer:
		return "container"
	case strings.HasPrefix(p.code, "PCL"):
		return "capital"
	case p.geoNamesID == 0 && !strings.HasPrefix(p.id, "place:adm"):
		return "approximate"
	case p.class == "A":
		return "admin-area"
	case p.class == "P":
		return "settlement"
	}
	return "feature"
}

func (b *builder) place(n quad.IRI, e extract.Entity, name string) {
	b.describePlace(n, gazetteerPlace{id: e.ID, name: name, geoNamesID: e.GeoNamesID, wikidata: e.Wikidata,
		latitude: e.Latitude, long: e.Longitude, class: e.FeatureClass, code: e.FeatureCode,
		placedInContainer: e.GeoPrecision == "container"})
	// Gazetteer containment: the administrative chain, widest first.
	if strings.HasPrefix(e.FeatureCode, "PCL") || len(e.Admin) == 0 {
		return
	}
	chain, areas := e.Admin, e.AdminAreas
	// An admin area's chain ends with itself; a town named like its
	// governorate (Aleppo, Idlib, Homs) is inside it.
	last := len(chain) - 1
	if last < len(areas) && areas[last].ID == e.ID ||
		e.FeatureClass != "P" && (strings.EqualFold(chain[last], name) || strings.EqualFold(chain[last], e.Text)) {
		chain = chain[:last]
	}
	var parent quad.IRI
	var path strings.Builder
	path.WriteString(strings.TrimSuffix(adminBase, "/"))
	if e.Country != "" {
		path.WriteString("/" + segment(e.Country))
	}
	for i, a := range chain {
		if i > 0 || e.Country == "" {
			path.WriteString("/" + segment(a))
		}
		var node quad.IRI
		switch {
		case i < len(areas) && areas[i].ID != "":
			// The gazetteer's own place: the node a caption naming it has.
			ar := areas[i]
			node = quad.IRI(EntityIRI(ar.ID))
			b.describePlace(node, gazetteerPlace{id: ar.ID, name: ar.Name, geoNamesID: ar.GeoNamesID, wikidata: ar.Wikidata,
				latitude: ar.Latitude, long: ar.Longitude, class: ar.FeatureClass, code: ar.FeatureCode})
		case i == 0 && e.Country != "":
			node = quad.IRI(countryBase + segment(e.Country))
			b.describePlace(node, gazetteerPlace{name: a, code: "PCLI"})
		default:
			// A name the gazetteer holds no place for: a node of its own,
			// by its path.
			node = quad.IRI(path.String())
			b.describePlace(node, gazetteerPlace{name: a})
		}
		if parent != "" {
			b.describe(node, SchemaContainedInPlace, parent)
		}
		parent = node
	}
	if parent != "" {
		b.describe(n, SchemaContainedInPlace, parent)
	}
}

// credit writes schema:creditText when the photographer and agency
// mentions sit side by side ("REUTERS/Jane Doe").
func (b *builder) credit() {
	var ph, ag *extract.Entity
	for i := range b.x.Entities {
		switch e := &b.x.Entities[i]; e.Type {
		case extract.Photographer:
			ph = e
		case extract.Agency:
			ag = e
		}
	}
	if ph == nil || ag == nil {
		return
	}
	start, end := min(ph.Start, ag.Start), max(ph.End, ag.End)
	if gap := end - start - (ph.End - ph.Start) - (ag.End - ag.Start); gap < 0 || gap > 3 {
		return
	}
	if b.runes == nil {
		b.runes = []rune(b.x.Text)
	}
	if start < 0 || end > len(b.runes) {
		return
	}
	b.add(b.photo, SchemaCreditText, str(string(b.runes[start:end])))
}

// arg resolves one argument of a relation to a node or, for dates, a literal.
func (b *builder) arg(id, text string) (quad.Value, bool) {
	if text == extract.PhotoSubject || id == extract.PhotoID(b.x.ID) {
		return b.photo, true
	}
	if i, ok := b.ents[id]; ok && id != "" {
		e := b.x.Entities[i]
		if e.Type == extract.Date {
			return dateLiteral(e)
		}
		return b.entityIRI(e), true
	}
	return nil, false
}

func (b *builder) relation(i int, r extract.Relation) (s quad.Value, p quad.IRI, o quad.Value, ok bool) {
	s, sok := b.arg(r.SubjID, r.Subj)
	o, ook := b.arg(r.ObjID, r.Obj)
	switch r.Rel {
	case extract.PhotographedBy:
		p = SchemaCreator
	case extract.DistributedBy:
		p = SchemaSourceOrg
	case extract.TakenOn:
		p = SchemaDateCreated
		if e, found := b.ents[r.ObjID]; found && ook {
			if prec := b.x.Entities[e].Precision; prec != "" {
				b.add(b.photo, CapgraphDatePrecision, str(prec))
			}
		}
	case extract.DepictsPlace:
		p = SchemaContentLocation
	case extract.DepictsPerson:
		p = SchemaAbout
	case extract.LocatedIn:
		p = CapgraphLocatedIn // as the caption states it, apart from containedInPlace
	case extract.MemberOf:
		p = SchemaMemberOf
		if !sok && ook && r.Subj != "" { // a role noun: "a fighter of ..."
			role := quad.IRI(string(b.g) + "#role" + strconv.Itoa(i))
			b.add(role, RDFType, SchemaRole)
			b.add(role, SchemaRoleName, str(r.Subj))
			s, sok, p = role, true, CapgraphMemberOf
		}
	case extract.AliasOf:
		if sok && ook && s == o {
			// One of the two spellings is the alternate name: the one
			// that is not the entity's name ("FSA (Free Syrian Army)"
			// names the group by its alias first).
			alt, name := r.Subj, b.name(r.ObjID)
			if strings.EqualFold(alt, name) {
				alt = r.Obj
			}
			if strings.EqualFold(alt, name) {
				return nil, "", nil, false
			}
			s, p, o = o, SchemaAlternateName, str(alt)
		} else {
			p = CapgraphAliasOf
		}
	case extract.ControlledBy:
		p = CapgraphControlledBy
		if !ook && sok && r.Obj != "" { // "rebels", "government forces"
			n := quad.IRI(controllerBase + segment(strings.ReplaceAll(strings.ToLower(r.Obj), " ", "-")))
			if r.ObjID != "" {
				n = quad.IRI(EntityIRI(r.ObjID))
			}
			b.describe(n, RDFType, SchemaOrganization)
			b.describe(n, SchemaName, str(r.Obj))
			o, ook = n, true
		}
	case extract.EventAt:
		p = SchemaLocation
	default:
		p = quad.IRI(Vocab + segment(string(r.Rel)))
	}
	return s, p, o, sok && ook && p != ""
}

// name returns the name that describe gives the entity with id.
func (b *builder) name(id string) string {
	i, ok := b.ents[id]
	if !ok || id == "" {
		return ""
	}
	return entityName(b.x.Entities[i])
}

// entityName is the name describe gives e: its table's, else its text. A
// person's name that a caption sets in capitals, as credit lines do
// ("REUTERS/ALI HAMDAN"), is written in title case: the node's id does not
// tell "ALI HAMDAN" from "Ali Hamdan", and its description must not
// depend on which of the two captions a store met first.
func entityName(e extract.Entity) string {
	if e.Canonical != "" {
		return e.Canonical
	}
	if (e.Type == extract.Person || e.Type == extract.Photographer) && isCapitals(e.Text) {
		return titleCase(e.Text)
	}
	return e.Text
}

// isCapitals reports whether s has a letter and no lower-case one.
func isCapitals(s string) bool {
	letter := false
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		letter = letter || unicode.IsLetter(r)
	}
	return letter
}

// titleCase writes each word of s, and each part of a word after a hyphen
// or an apostrophe, with its first letter upper case and the rest lower:
// "AL-HAJ O'NEILL" is "Al-Haj O'Neill". A particle after the first word is
// written in lower case, as names in running text write it, so that
// "SALEH AL-HAMWI" in a credit line and "Saleh al-Hamwi" in another are
// one name: "Saleh al-Hamwi", "Juan de la Cruz".
func titleCase(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		var b strings.Builder
		start := true
		for _, r := range w {
			if start {
				b.WriteRune(unicode.ToUpper(r))
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
			start = r == '-' || r == '\'' || r == '\u2019'
		}
		w = b.String()
		if i > 0 {
			lower := strings.ToLower(w)
			if article, _, ok := strings.Cut(lower, "-"); ok && nameArticles[article] {
				w = article + w[len(article):]
			} else if nameParticles[lower] {
				w = lower
			}
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}

// nameArticles are the Arabic article's transliterations that open a
// hyphenated part of a name (al-Assad, el-Sisi, ash-Shami); nameParticles
// the words between the parts of European and Arabic names that are
// written in lower case.
var (
	nameArticles  = map[string]bool{"al": true, "el": true, "ad": true, "an": true, "ar": true, "as": true, "ash": true, "at": true, "az": true}
	nameParticles = map[string]bool{"bin": true, "bint": true, "ibn": true, "da": true, "das": true, "de": true, "del": true, "della": true, "der": true, "di": true, "do": true, "dos": true, "du": true, "la": true, "le": true, "van": true, "von": true, "y": true}
)

// WKTPoint writes a point as a GeoSPARQL WKT literal: longitude first, in
// the default reference system, CRS84.
func WKTPoint(lat, long float64) quad.Value {
	return quad.TypedString{
		Value: quad.String("POINT(" + strconv.FormatFloat(long, 'f', -1, 64) + " " + strconv.FormatFloat(lat, 'f', -1, 64) + ")"),
		Type:  GeoWKTLiteral,
	}
}

// dateLiteral types a DATE entity's ISO value by its precision.
func dateLiteral(e extract.Entity) (quad.Value, bool) {
	v := e.Value
	var t quad.IRI
	switch {
	case strings.HasPrefix(v, "--"): // before YYYY-MM: "--05-19" has a hyphen at 4 too
		t = XSDGMonthDay
	case len(v) == 10 && v[4] == '-':
		t = XSDDate
	case len(v) == 7 && v[4] == '-':
		t = XSDGYearMonth
	case len(v) == 4:
		t = XSDGYear
	case v == "":
		return str(e.Text), true
	default:
		return str(v), true
	}
	return quad.TypedString{Value: quad.String(v), Type: t}, true
}

// DomainTypes are the classes that the RDFS domains of three predicates
// give their subjects: a mention is a nif:String (nif:referenceContext), a
// statement an rdf:Statement (rdf:subject) and a caption graph a
// prov:Entity (prov:wasDerivedFrom). Each such subject has exactly one
// quad of its predicate.
var DomainTypes = map[quad.IRI]quad.IRI{
	NIFReferenceContext: NIFString,
	RDFSubject:          RDFStatement,
	ProvWasDerivedFrom:  ProvEntity,
}

// DomainType returns the rdf:type quad, in q's graph, that the domain of
// q's predicate entails for q's subject, and whether there is one. The
// store leaves these types to the predicates (they would add one quad in
// six); an export states them, so that a reader without RDFS inference
// finds a type on every node.
func DomainType(q quad.Quad) (quad.Quad, bool) {
	p, _ := q.Predicate.(quad.IRI)
	class, ok := DomainTypes[p]
	if !ok {
		return quad.Quad{}, false
	}
	return quad.Quad{Subject: q.Subject, Predicate: RDFType, Object: class, Label: q.Label}, true
}
