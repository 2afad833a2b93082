package model

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/cayleygraph/quad"
)

// Base is the IRI under which capgraph mints every node: photos, caption
// graphs and entities. Entity ids map to paths below it:
// "place:geonames:170654" becomes Base+"place/geonames/170654".
const Base = "https://capgraph.org/id/"

// Vocab is the namespace of the project vocabulary, published as
// docs/capgraph.ttl. It holds only terms that schema.org lacks.
const Vocab = "https://capgraph.org/ns#"

// Version names the shape of the RDF that the store's Load writes. It is
// part of each caption's content hash, so changing the model rewrites every
// caption on the next build.
const Version = "capgraph-model/4"

// EntitiesGraph is the named graph that holds the description of every
// entity (type, name, coordinates, sameAs, admin chain) once, shared by the
// caption graphs that name it. Its IRI cannot be a caption graph's.
const EntitiesGraph = Base + "entities"

// TalliesGraph is the named graph of the counts that the store keeps as it
// loads (capgraph:photoCount, capgraph:quadCount and the credits).
const TalliesGraph = Base + "tallies"

// ContainmentGraph is the named graph that an export adds after the
// others: capgraph:within from each place to every place that holds it
// within [WithinSteps] steps of capgraph:locatedIn (stated by any caption)
// or schema:containedInPlace. It follows from the other graphs and is not
// kept in the store; it lets a triple store answer "in this place or
// anywhere inside it" with one lookup, as the caption graphs spread the
// steps over graphs that a property path cannot cross.
const ContainmentGraph = Base + "containment"

// WithinSteps bounds the containment chains of [ContainmentGraph], as the
// saved queries bound theirs (within() in queries/lib.js).
const WithinSteps = 5

// Prefixes are the namespaces of the model with the prefixes that the
// Turtle and JSON-LD writers declare, in the order they are declared.
var Prefixes = []struct{ Prefix, IRI string }{
	{"capgraph", Vocab},
	{"schema", SchemaNS},
	{"prov", ProvNS},
	{"nif", NIFNS},
	{"itsrdf", ITSNS},
	{"geo", GeoNS},
	{"wgs", WGS84NS},
	{"owl", OWLNS},
	{"rdf", RDFNS},
	{"xsd", XSDNS},
}

// Namespaces of the model.
const (
	SchemaNS = "https://schema.org/"
	ProvNS   = "http://www.w3.org/ns/prov#"
	NIFNS    = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"
	ITSNS    = "http://www.w3.org/2005/11/its/rdf#"
	GeoNS    = "http://www.opengis.net/ont/geosparql#"
	WGS84NS  = "http://www.w3.org/2003/01/geo/wgs84_pos#"
	OWLNS    = "http://www.w3.org/2002/07/owl#"
	RDFNS    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	XSDNS    = "http://www.w3.org/2001/XMLSchema#"
)

// Terms of the model.
const (
	RDFType      quad.IRI = RDFNS + "type"
	RDFSubject   quad.IRI = RDFNS + "subject"
	RDFPredicate quad.IRI = RDFNS + "predicate"
	RDFObject    quad.IRI = RDFNS + "object"
	RDFStatement quad.IRI = RDFNS + "Statement"

	SchemaPhotograph         quad.IRI = SchemaNS + "Photograph"
	SchemaImageObject        quad.IRI = SchemaNS + "ImageObject"
	SchemaCountry            quad.IRI = SchemaNS + "Country"
	SchemaAdministrativeArea quad.IRI = SchemaNS + "AdministrativeArea"
	SchemaGeoCoordinates     quad.IRI = SchemaNS + "GeoCoordinates"
	SchemaRole               quad.IRI = SchemaNS + "Role"
	SchemaPerson             quad.IRI = SchemaNS + "Person"
	SchemaPlace              quad.IRI = SchemaNS + "Place"
	SchemaOrganization       quad.IRI = SchemaNS + "Organization"
	SchemaNewsMedia          quad.IRI = SchemaNS + "NewsMediaOrganization"
	SchemaEvent              quad.IRI = SchemaNS + "Event"
	SchemaCaption            quad.IRI = SchemaNS + "caption"
	SchemaIdentifier         quad.IRI = SchemaNS + "identifier"
	SchemaCreditText         quad.IRI = SchemaNS + "creditText"
	SchemaCreator            quad.IRI = SchemaNS + "creator"
	SchemaSourceOrg          quad.IRI = SchemaNS + "sourceOrganization"
	SchemaDateCreated        quad.IRI = SchemaNS + "dateCreated"
	SchemaContentLocation    quad.IRI = SchemaNS + "contentLocation"
	SchemaAbout              quad.IRI = SchemaNS + "about"
	SchemaMentions           quad.IRI = SchemaNS + "mentions"
	SchemaName               quad.IRI = SchemaNS + "name"
	SchemaAlternateName      quad.IRI = SchemaNS + "alternateName"
	SchemaContainedInPlace   quad.IRI = SchemaNS + "containedInPlace"
	SchemaGeo                quad.IRI = SchemaNS + "geo"
	SchemaLatitude           quad.IRI = SchemaNS + "latitude"
	SchemaLongitude          quad.IRI = SchemaNS + "longitude"
	SchemaMemberOf           quad.IRI = SchemaNS + "memberOf"
	SchemaLocation           quad.IRI = SchemaNS + "location"
	SchemaRoleName           quad.IRI = SchemaNS + "roleName"
	OWLSameAs                quad.IRI = OWLNS + "sameAs"
	ProvWasDerivedFrom       quad.IRI = ProvNS + "wasDerivedFrom"
	ProvGeneratedAtTime      quad.IRI = ProvNS + "generatedAtTime"
	ProvEntity               quad.IRI = ProvNS + "Entity"
	NIFString                quad.IRI = NIFNS + "String"
	NIFContext               quad.IRI = NIFNS + "Context"
	NIFIsString              quad.IRI = NIFNS + "isString"
	NIFReferenceContext      quad.IRI = NIFNS + "referenceContext"
	NIFBeginIndex            quad.IRI = NIFNS + "beginIndex"
	NIFEndIndex              quad.IRI = NIFNS + "endIndex"
	NIFAnchorOf              quad.IRI = NIFNS + "anchorOf"
	ITSTaIdentRef            quad.IRI = ITSNS + "taIdentRef"
	GeoGeometry              quad.IRI = GeoNS + "Geometry"
	GeoHasGeometry           quad.IRI = GeoNS + "hasGeometry"
	GeoAsWKT                 quad.IRI = GeoNS + "asWKT"
	GeoWKTLiteral            quad.IRI = GeoNS + "wktLiteral"
	WGS84Lat                 quad.IRI = WGS84NS + "lat"
	WGS84Long                quad.IRI = WGS84NS + "long"
	CapgraphArmedGroup       quad.IRI = Vocab + "ArmedGroup"
	CapgraphGroupType        quad.IRI = Vocab + "groupType"
	CapgraphGeoPrecision     quad.IRI = Vocab + "geoPrecision"
	CapgraphControlledBy     quad.IRI = Vocab + "controlledBy"
	CapgraphLocatedIn        quad.IRI = Vocab + "locatedIn"
	CapgraphWithin           quad.IRI = Vocab + "within"
	CapgraphMemberOf         quad.IRI = Vocab + "memberOf"
	CapgraphAliasOf          quad.IRI = Vocab + "aliasOf"
	CapgraphConfidence       quad.IRI = Vocab + "confidence"
	CapgraphDatePrecision    quad.IRI = Vocab + "datePrecision"
	CapgraphExtractorVersion quad.IRI = Vocab + "extractorVersion"
	CapgraphContentHash      quad.IRI = Vocab + "contentHash"
	XSDDate                  quad.IRI = XSDNS + "date"
	XSDGYearMonth            quad.IRI = XSDNS + "gYearMonth"
	XSDGYear                 quad.IRI = XSDNS + "gYear"
	XSDGMonthDay             quad.IRI = XSDNS + "gMonthDay"
	XSDDateTime              quad.IRI = XSDNS + "dateTime"
	XSDDecimal               quad.IRI = XSDNS + "decimal"
	XSDNonNegativeInteger    quad.IRI = XSDNS + "nonNegativeInteger"

	CapgraphPhotoCount   quad.IRI = Vocab + "photoCount"
	CapgraphQuadCount    quad.IRI = Vocab + "quadCount"
	CapgraphTallies      quad.IRI = Vocab + "Tallies"
	CapgraphAgency       quad.IRI = Vocab + "agency"
	CapgraphPhotographer quad.IRI = Vocab + "photographer"
)

// Where capgraph mints IRIs, below [Base], and GeoNames its own (the
// http form: the one GeoNames' RDF and every dataset that links to it use).
const (
	geoNamesBase   = "http://sws.geonames.org/"
	wikidataBase   = "http://www.wikidata.org/entity/" // Wikidata's concept URIs
	controllerBase = Base + "controller/"
	adminBase      = Base + "place/admin/"
	countryBase    = Base + "place/country/"
	photoBase      = Base + "photo/"
	graphBase      = Base + "graph/"
)

// PhotoIRI returns the IRI of the photo that caption id describes.
func PhotoIRI(captionID string) string { return photoBase + segment(captionID) }

// GraphIRI returns the IRI of the named graph that holds caption id's facts.
func GraphIRI(captionID string) string { return graphBase + segment(captionID) }

// EntityIRI returns the IRI of the entity with the given extraction id:
// each colon-separated part becomes one escaped path segment, so
// "place:geonames:170654" is Base+"place/geonames/170654".
func EntityIRI(id string) string {
	parts := strings.Split(id, ":")
	for i, p := range parts {
		parts[i] = segment(p)
	}
	return Base + strings.Join(parts, "/")
}

// segment escapes s as one IRI path segment. The result never holds a
// character that N-Triples, Turtle or JSON-LD would need to escape.
func segment(s string) string {
	if s == "" {
		return "_"
	}
	return url.PathEscape(s)
}

// Decimal writes a confidence or coordinate as an xsd:decimal literal in
// its shortest canonical form.
func Decimal(f float64) quad.Value {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return quad.TypedString{Value: quad.String(s), Type: XSDDecimal}
}

// NonNegInt writes a count as an xsd:nonNegativeInteger literal.
func NonNegInt(n int) quad.Value {
	return quad.TypedString{Value: quad.String(strconv.Itoa(n)), Type: XSDNonNegativeInteger}
}

// GraphOfPhoto returns the IRI of the named graph of the caption that
// photo, a [PhotoIRI], describes.
func GraphOfPhoto(photo string) (string, bool) {
	seg, ok := strings.CutPrefix(photo, photoBase)
	if !ok {
		return "", false
	}
	return graphBase + seg, true
}

// IsCaptionIRI reports whether iri is a photo's or a caption graph's: the
// nodes that belong to one caption rather than to the entities graph.
func IsCaptionIRI(iri string) bool {
	return strings.HasPrefix(iri, graphBase) || strings.HasPrefix(iri, photoBase)
}

// A JSONLDTerm is a short name that the JSON-LD export's context gives a
// property or a class, so that its documents read as plain JSON:
// "name": "Syria" for "schema:name": [{"@value": "Syria"}].
type JSONLDTerm struct {
	Term string
	IRI  quad.IRI
	// Type is what a value given as a plain string means: "@id" (a node's
	// IRI), a datatype, or "" (a plain string, or a class for @type).
	Type quad.IRI
}

// JSONLDTerms are the terms of the JSON-LD context. A property without a
// term (capgraph:memberOf, whose name schema:memberOf has, and
// rdf:object, whose values are nodes or literals) keeps its prefixed name.
var JSONLDTerms = []JSONLDTerm{
	// Classes.
	{"Photograph", SchemaPhotograph, ""}, {"ImageObject", SchemaImageObject, ""},
	{"Person", SchemaPerson, ""}, {"Place", SchemaPlace, ""}, {"Country", SchemaCountry, ""},
	{"AdministrativeArea", SchemaAdministrativeArea, ""}, {"Organization", SchemaOrganization, ""},
	{"NewsMediaOrganization", SchemaNewsMedia, ""}, {"Event", SchemaEvent, ""},
	{"GeoCoordinates", SchemaGeoCoordinates, ""}, {"Role", SchemaRole, ""},
	{"ArmedGroup", CapgraphArmedGroup, ""}, {"Context", NIFContext, ""}, {"Geometry", GeoGeometry, ""},
	{"String", NIFString, ""}, {"Statement", RDFStatement, ""}, {"Entity", ProvEntity, ""},
	// The photo.
	{"caption", SchemaCaption, ""}, {"identifier", SchemaIdentifier, ""}, {"creditText", SchemaCreditText, ""},
	{"creator", SchemaCreator, "@id"}, {"sourceOrganization", SchemaSourceOrg, "@id"},
	{"dateCreated", SchemaDateCreated, ""}, {"datePrecision", CapgraphDatePrecision, ""},
	{"contentLocation", SchemaContentLocation, "@id"}, {"about", SchemaAbout, "@id"},
	{"mentions", SchemaMentions, "@id"},
	// Entities and places.
	{"name", SchemaName, ""}, {"alternateName", SchemaAlternateName, ""},
	{"sameAs", OWLSameAs, "@id"}, {"groupType", CapgraphGroupType, ""},
	{"containedInPlace", SchemaContainedInPlace, "@id"}, {"coordinates", SchemaGeo, "@id"},
	{"hasGeometry", GeoHasGeometry, "@id"}, {"lat", WGS84Lat, XSDDecimal}, {"long", WGS84Long, XSDDecimal},
	{"latitude", SchemaLatitude, XSDDecimal}, {"longitude", SchemaLongitude, XSDDecimal},
	{"asWKT", GeoAsWKT, GeoWKTLiteral}, {"geoPrecision", CapgraphGeoPrecision, ""},
	// Facts between entities.
	{"locatedIn", CapgraphLocatedIn, "@id"}, {"within", CapgraphWithin, "@id"},
	{"controlledBy", CapgraphControlledBy, "@id"}, {"memberOf", SchemaMemberOf, "@id"},
	{"location", SchemaLocation, "@id"}, {"aliasOf", CapgraphAliasOf, "@id"}, {"roleName", SchemaRoleName, ""},
	// Mentions, statements and provenance.
	{"referenceContext", NIFReferenceContext, "@id"}, {"isString", NIFIsString, ""},
	{"beginIndex", NIFBeginIndex, XSDNonNegativeInteger}, {"endIndex", NIFEndIndex, XSDNonNegativeInteger},
	{"anchorOf", NIFAnchorOf, ""}, {"taIdentRef", ITSTaIdentRef, "@id"},
	{"confidence", CapgraphConfidence, XSDDecimal},
	{"subject", RDFSubject, "@id"}, {"predicate", RDFPredicate, "@id"},
	{"wasDerivedFrom", ProvWasDerivedFrom, "@id"}, {"generatedAtTime", ProvGeneratedAtTime, XSDDateTime},
	{"extractorVersion", CapgraphExtractorVersion, ""}, {"contentHash", CapgraphContentHash, ""},
}
