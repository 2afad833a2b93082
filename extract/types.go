package extract

import "encoding/json"

// A Caption is one photo caption to extract from.
type Caption struct {
	ID   string `json:"id"`   // stable identifier; derived from Text when the input has none
	Text string `json:"text"` // the caption exactly as found
	// Meta holds the input record's other fields (JSON Lines keys or CSV
	// columns), passed through to the output untouched.
	Meta map[string]json.RawMessage `json:"meta,omitempty"`
}

// An EntityType is the kind of thing an [Entity] names.
type EntityType string

// The entity types, as written in the output and in gold files.
const (
	Person       EntityType = "PERSON"
	Place        EntityType = "PLACE"
	ArmedGroup   EntityType = "ARMED_GROUP"
	Organization EntityType = "ORGANIZATION"
	Date         EntityType = "DATE"
	Photographer EntityType = "PHOTOGRAPHER"
	Agency       EntityType = "AGENCY"
	Event        EntityType = "EVENT"
)

// EntityTypes lists every [EntityType] in a fixed order, for reports.
var EntityTypes = []EntityType{Person, Place, ArmedGroup, Organization, Date, Photographer, Agency, Event}

// A RelationType is the predicate of a [Relation].
type RelationType string

// The relation types, as written in the output and in gold files.
const (
	PhotographedBy RelationType = "photographed_by" // photo -> PHOTOGRAPHER
	DistributedBy  RelationType = "distributed_by"  // photo -> AGENCY
	TakenOn        RelationType = "taken_on"        // photo -> DATE
	DepictsPlace   RelationType = "depicts_place"   // photo -> PLACE
	DepictsPerson  RelationType = "depicts_person"  // photo -> PERSON
	LocatedIn      RelationType = "located_in"      // PLACE -> PLACE, as the caption states it
	MemberOf       RelationType = "member_of"       // role or group -> ARMED_GROUP
	AliasOf        RelationType = "alias_of"        // short form -> full name
	ControlledBy   RelationType = "controlled_by"   // PLACE -> ARMED_GROUP, "rebels" or "government forces"
	EventAt        RelationType = "event_at"        // EVENT -> PLACE
)

// RelationTypes lists every [RelationType] in a fixed order, for reports.
var RelationTypes = []RelationType{PhotographedBy, DistributedBy, TakenOn, DepictsPlace, DepictsPerson,
	LocatedIn, MemberOf, AliasOf, ControlledBy, EventAt}

// PhotoSubject is the pseudo-entity text that stands for the photo itself
// as the subject of photographed_by, distributed_by, taken_on and depicts_*.
const PhotoSubject = "photo"

// The two normalised controller values that controlled_by may name instead
// of an armed group.
const (
	ControllerRebels     = "rebels"
	ControllerGovernment = "government forces"
)

// An Entity is one mention of a named thing in a caption.
//
// Start and End are half-open offsets in Unicode code points, so that
// []rune(text)[Start:End] in Go and text[start:end] in Python both give Text.
type Entity struct {
	ID         string     `json:"id"`   // canonical id, e.g. "place:geonames:170654" or "group:free-syrian-army"
	Text       string     `json:"text"` // exactly the caption's text between Start and End
	Type       EntityType `json:"type"`
	Start      int        `json:"start"`
	End        int        `json:"end"`
	Canonical  string     `json:"canonical,omitempty"` // the table's name for the entity; "" when no table knows it
	Confidence float64    `json:"confidence"`          // 0 to 1

	// DATE only.
	Value     string `json:"value,omitempty"`     // ISO 8601: "2013-01-16", "2013-01", "2013", or "--01-16" without a year
	Precision string `json:"precision,omitempty"` // "day", "month" or "year"

	// PLACE only, when the gazetteer knows the place; Wikidata also for
	// the groups, agencies and organisations that have an item.
	GeoNamesID   int      `json:"geonames_id,omitempty"`
	Wikidata     string   `json:"wikidata,omitempty"` // Wikidata item, "Q858": countries, and the table entries the gazetteer links
	Latitude     float64  `json:"latitude,omitzero"`
	Longitude    float64  `json:"longitude,omitzero"`
	FeatureClass string   `json:"feature_class,omitempty"` // GeoNames feature class: P populated place, A admin area, S spot, T terrain, L area...
	FeatureCode  string   `json:"feature_code,omitempty"`  // GeoNames feature code: PPL, ADM1, PCLI, AIRB...
	Country      string   `json:"country,omitempty"`       // ISO 3166-1 alpha-2 code
	Admin        []string `json:"admin,omitempty"`         // administrative chain, widest first: country, first-level division, second level
	// AdminAreas are the places of Admin, one for each name, as the
	// gazetteer knows them (an ID of "" where it holds no place of that
	// name): a graph describes each as it describes the place itself, so
	// that a province in a chain and a province named by a caption are
	// one node.
	AdminAreas []AdminArea `json:"admin_areas,omitempty"`
	// GeoPrecision is "" when the coordinates are the place's own, and
	// "container" when the gazetteer does not know the place and they are
	// those of the place the caption puts it in ("Burungu, in Masisi
	// territory"), as conflict-event datasets do for small villages.
	GeoPrecision string `json:"geo_precision,omitempty"`

	// ARMED_GROUP only.
	GroupType string   `json:"group_type,omitempty"` // "state forces", "rebel group", "jihadist group", "militia", "foreign forces", ...
	Aliases   []string `json:"aliases,omitempty"`    // other names of the group known to the alias table
}

// An AdminArea is a place of a place's administrative chain.
type AdminArea struct {
	ID           string  `json:"id"` // "" when the gazetteer holds no place of the chain's name
	Name         string  `json:"name"`
	GeoNamesID   int     `json:"geonames_id,omitempty"`
	Wikidata     string  `json:"wikidata,omitempty"`
	Latitude     float64 `json:"latitude,omitzero"`
	Longitude    float64 `json:"longitude,omitzero"`
	FeatureClass string  `json:"feature_class,omitempty"`
	FeatureCode  string  `json:"feature_code,omitempty"`
}

// A Relation is one fact linking two arguments of an [Extraction].
//
// Subj and Obj are entity texts as written in the caption, [PhotoSubject],
// a role noun copied from the caption (member_of subjects only) or a
// normalised controller value (controlled_by objects only). SubjID and ObjID
// are the canonical ids of those arguments.
type Relation struct {
	Subj       string       `json:"subj"`
	Rel        RelationType `json:"rel"`
	Obj        string       `json:"obj"`
	SubjID     string       `json:"subj_id"`
	ObjID      string       `json:"obj_id"`
	Confidence float64      `json:"confidence"` // 0 to 1
}

// An Extraction is what an [Extractor] finds in one caption. Its JSON form,
// one object per line, is the output contract of `capgraph extract`.
type Extraction struct {
	ID        string                     `json:"id"`
	Text      string                     `json:"text"`
	Meta      map[string]json.RawMessage `json:"meta,omitempty"`
	Entities  []Entity                   `json:"entities"`
	Relations []Relation                 `json:"relations"`
	// Notes say what the extractor could not read in the caption, such
	// as a script other than Latin; nil when it read it all.
	Notes []string `json:"notes,omitempty"`
}

// PhotoID returns the canonical id of the photo a caption describes.
func PhotoID(captionID string) string { return "photo:" + captionID }
