package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/elnormous/contenttype"

	"github.com/capgraph/capgraph/graph"
	"github.com/capgraph/capgraph/graph/model"
)

// linkedTypes are what a node's IRI is served as. Turtle comes first: a
// client that accepts anything gets RDF; a browser, which asks for HTML
// first, gets the node's page.
var linkedTypes = []contenttype.MediaType{
	contenttype.NewMediaType("text/turtle"),
	contenttype.NewMediaType("text/html"),
	contenttype.NewMediaType("application/ld+json"),
	contenttype.NewMediaType("application/n-triples"),
	contenttype.NewMediaType("application/n-quads"),
}

var linkedFormats = map[string]graph.Format{
	"text/turtle":           graph.Turtle,
	"application/ld+json":   graph.JSONLD,
	"application/n-triples": graph.NTriples,
	"application/n-quads":   graph.NQuads,
}

// linkedData answers a node's IRI under the server's own address:
// /id/place/geonames/170654 is <.../id/place/geonames/170654>. A browser
// is sent to the node's page (303); an RDF client gets what the store
// states about the node, in the format it asks for.
func (s *Server) linkedData(w http.ResponseWriter, r *http.Request) {
	iri := model.Base + strings.TrimPrefix(r.URL.EscapedPath(), "/id/")
	w.Header().Set("Vary", "Accept")
	mt, _, err := contenttype.GetAcceptableMediaType(r, linkedTypes)
	if err != nil {
		writeError(w, http.StatusNotAcceptable, "no acceptable type: "+iri+" is served as text/html, text/turtle, application/ld+json, application/n-triples or application/n-quads")
		return
	}
	if mt.MIME() == "text/html" {
		http.Redirect(w, r, "/#/entity?iri="+url.QueryEscape(iri), http.StatusSeeOther)
		return
	}
	var buf bytes.Buffer
	n, err := s.store.Describe(r.Context(), &buf, iri, linkedFormats[mt.MIME()])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if n == 0 {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no node %s in the graph", iri))
		return
	}
	w.Header().Set("Content-Type", mt.MIME()+"; charset=utf-8")
	w.Header().Set("Content-Length", fmt.Sprint(buf.Len()))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(buf.Bytes())
}
