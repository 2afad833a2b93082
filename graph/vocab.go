package graph

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

// ModelVersion names the shape of the RDF that [Store.Load] writes. It is
// part of each caption's content hash, so changing the model rewrites every
// caption on the next build.
const ModelVersion = "capgraph-model/2"

// EntitiesGraph is the named graph that holds the description of every
// entity (type, name, coordinates, sameAs, admin chain) once, shared by the
// caption graphs that name it. Its IRI cannot be a caption graph's.
const EntitiesGraph = Base + "entities"

var entitiesGraph = quad.IRI(EntitiesGraph)

// Namespaces used in the model, with the prefixes the Turtle and JSON-LD
// writers declare, in the order they are declared.
var prefixes = []struct{ Prefix, IRI string }{
	{"capgraph", Vocab},
	{"schema", "https://schema.org/"},
	{"prov", "http://www.w3.org/ns/prov#"},
	{"nif", "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"},
	{"itsrdf", "http://www.w3.org/2005/11/its/rdf#"},
	{"owl", "http://www.w3.org/2002/07/owl#"},
	{"rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"},
	{"xsd", "http://www.w3.org/2001/XMLSchema#"},
}

const (
	nsSchema = "https://schema.org/"
	nsProv   = "http://www.w3.org/ns/prov#"
	nsNIF    = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"
	nsITS    = "http://www.w3.org/2005/11/its/rdf#"
	nsOWL    = "http://www.w3.org/2002/07/owl#"
	nsRDF    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	nsXSD    = "http://www.w3.org/2001/XMLSchema#"
)

// Terms of the model.
var (
	rdfType      = quad.IRI(nsRDF + "type")
	rdfSubject   = quad.IRI(nsRDF + "subject")
	rdfPredicate = quad.IRI(nsRDF + "predicate")
	rdfObject    = quad.IRI(nsRDF + "object")

	schemaPhotograph       = quad.IRI(nsSchema + "Photograph")
	schemaPerson           = quad.IRI(nsSchema + "Person")
	schemaPlace            = quad.IRI(nsSchema + "Place")
	schemaOrganization     = quad.IRI(nsSchema + "Organization")
	schemaNewsMedia        = quad.IRI(nsSchema + "NewsMediaOrganization")
	schemaEvent            = quad.IRI(nsSchema + "Event")
	schemaCaption          = quad.IRI(nsSchema + "caption")
	schemaIdentifier       = quad.IRI(nsSchema + "identifier")
	schemaCreditText       = quad.IRI(nsSchema + "creditText")
	schemaCreator          = quad.IRI(nsSchema + "creator")
	schemaSourceOrg        = quad.IRI(nsSchema + "sourceOrganization")
	schemaDateCreated      = quad.IRI(nsSchema + "dateCreated")
	schemaContentLocation  = quad.IRI(nsSchema + "contentLocation")
	schemaAbout            = quad.IRI(nsSchema + "about")
	schemaMentions         = quad.IRI(nsSchema + "mentions")
	schemaName             = quad.IRI(nsSchema + "name")
	schemaAlternateName    = quad.IRI(nsSchema + "alternateName")
	schemaContainedInPlace = quad.IRI(nsSchema + "containedInPlace")
	schemaGeo              = quad.IRI(nsSchema + "geo")
	schemaLatitude         = quad.IRI(nsSchema + "latitude")
	schemaLongitude        = quad.IRI(nsSchema + "longitude")
	schemaMemberOf         = quad.IRI(nsSchema + "memberOf")
	schemaLocation         = quad.IRI(nsSchema + "location")
	schemaRoleName         = quad.IRI(nsSchema + "roleName")
	owlSameAs              = quad.IRI(nsOWL + "sameAs")
	provWasDerivedFrom     = quad.IRI(nsProv + "wasDerivedFrom")
	provGeneratedAtTime    = quad.IRI(nsProv + "generatedAtTime")
	nifBeginIndex          = quad.IRI(nsNIF + "beginIndex")
	nifEndIndex            = quad.IRI(nsNIF + "endIndex")
	nifAnchorOf            = quad.IRI(nsNIF + "anchorOf")
	itsTaIdentRef          = quad.IRI(nsITS + "taIdentRef")
	cgArmedGroup           = quad.IRI(Vocab + "ArmedGroup")
	cgGroupType            = quad.IRI(Vocab + "groupType")
	cgGeoPrecision         = quad.IRI(Vocab + "geoPrecision")
	cgControlledBy         = quad.IRI(Vocab + "controlledBy")
	cgLocatedIn            = quad.IRI(Vocab + "locatedIn")
	cgMemberOf             = quad.IRI(Vocab + "memberOf")
	cgAliasOf              = quad.IRI(Vocab + "aliasOf")
	cgConfidence           = quad.IRI(Vocab + "confidence")
	cgDatePrecision        = quad.IRI(Vocab + "datePrecision")
	cgExtractorVersion     = quad.IRI(Vocab + "extractorVersion")
	cgContentHash          = quad.IRI(Vocab + "contentHash")
	xsdDate                = quad.IRI(nsXSD + "date")
	xsdGYearMonth          = quad.IRI(nsXSD + "gYearMonth")
	xsdGYear               = quad.IRI(nsXSD + "gYear")
	xsdGMonthDay           = quad.IRI(nsXSD + "gMonthDay")
	xsdDateTime            = quad.IRI(nsXSD + "dateTime")
	xsdDecimal             = quad.IRI(nsXSD + "decimal")
	xsdNonNegativeInteger  = quad.IRI(nsXSD + "nonNegativeInteger")
	geoNamesBase           = "https://sws.geonames.org/"
	controllerBase         = Base + "controller/"
	adminBase              = Base + "place/admin/"
	countryBase            = Base + "place/country/"
	photoBase              = Base + "photo/"
	graphBase              = Base + "graph/"
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

// decimal writes a confidence or coordinate as an xsd:decimal literal in
// its shortest canonical form.
func decimal(f float64) quad.Value {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return quad.TypedString{Value: quad.String(s), Type: xsdDecimal}
}

func nonNegInt(n int) quad.Value {
	return quad.TypedString{Value: quad.String(strconv.Itoa(n)), Type: xsdNonNegativeInteger}
}
