package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/capgraph/capgraph/extract"
)

// A Doc is one caption of a gold or prediction file: the fields scoring
// reads. Gold files and `capgraph extract` output ([extract.Extraction]) both
// decode into it; other fields are ignored.
type Doc struct {
	ID        string     `json:"id"`
	Text      string     `json:"text"`
	Entities  []Entity   `json:"entities"`
	Relations []Relation `json:"relations"`
}

// An Entity is an entity of a [Doc]: its text as written and its type
// ("PLACE", "ARMED_GROUP", ...).
type Entity struct {
	Text string `json:"text"`
	Type string `json:"type"`
	// Latitude and Longitude are a predicted place's coordinates, nil
	// when the gazetteer did not place it (gold entities have none).
	Latitude  *float64 `json:"latitude,omitempty"`
	Longitude *float64 `json:"longitude,omitempty"`
	// Country is a predicted place's ISO 3166-1 code, "" when unknown.
	Country string `json:"country,omitempty"`
}

// A Relation is a relation of a [Doc], with its arguments as written.
type Relation struct {
	Subj string `json:"subj"`
	Rel  string `json:"rel"`
	Obj  string `json:"obj"`
}

// FromExtraction returns the [Doc] that x would decode into, for scoring
// extractions held in memory.
func FromExtraction(x extract.Extraction) Doc {
	d := Doc{ID: x.ID, Text: x.Text}
	for _, e := range x.Entities {
		de := Entity{Text: e.Text, Type: string(e.Type), Country: e.Country}
		if e.Latitude != 0 || e.Longitude != 0 {
			de.Latitude, de.Longitude = &e.Latitude, &e.Longitude
		}
		d.Entities = append(d.Entities, de)
	}
	for _, r := range x.Relations {
		d.Relations = append(d.Relations, Relation{Subj: r.Subj, Rel: string(r.Rel), Obj: r.Obj})
	}
	return d
}

// Errors that [ReadDocs] wraps in a [*ParseError].
var (
	ErrNoID        = errors.New(`missing "id"`)
	ErrNoText      = errors.New(`missing "text"`)
	ErrDuplicateID = errors.New("duplicate id")
	ErrNotText     = errors.New("not text: control bytes or invalid UTF-8, where eval reads JSON Lines")
)

// A ParseError is a bad line of a JSON Lines file. Its message reads
// "gold.jsonl:3: invalid JSON: ...", or "gold.jsonl:3: missing "id"".
type ParseError struct {
	Name string // file name as given to ReadDocs
	Line int    // 1-based
	Err  error  // ErrNoID, ErrNoText, ErrDuplicateID (wrapped), ErrNotText or the JSON error
}

func (e *ParseError) Error() string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(e.Err, &syn) || errors.As(e.Err, &typ) {
		return fmt.Sprintf("%s:%d: invalid JSON: %v", e.Name, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// ReadDocs reads JSON Lines of captions from r: one object per line, blank
// lines skipped, a UTF-8 byte order mark allowed. name is used in error
// messages only. A line that is not a JSON object of the right shape, lacks a
// non-empty "id" or "text" ("null" lacks both), or repeats an earlier id
// stops reading with a [*ParseError];
// errors from r are returned as they are, wrapped with name.
func ReadDocs(r io.Reader, name string) ([]Doc, error) {
	br := bufio.NewReader(r)
	var docs []Doc
	first := map[string]int{} // id -> line
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return docs, fmt.Errorf("%s: %w", name, err)
		}
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\ufeff"))
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			d, perr := parseDoc(t)
			if perr == nil {
				if prev, dup := first[d.ID]; dup {
					perr = fmt.Errorf("%w %q (first on line %d)", ErrDuplicateID, d.ID, prev)
				}
			}
			if perr != nil {
				return docs, &ParseError{Name: name, Line: line, Err: perr}
			}
			first[d.ID] = line
			docs = append(docs, d)
		}
		if err == io.EOF {
			return docs, nil
		}
	}
}

func parseDoc(b []byte) (Doc, error) {
	var d Doc
	if err := json.Unmarshal(b, &d); err != nil {
		if !utf8.Valid(b) || bytes.ContainsFunc(b, func(r rune) bool { return r < ' ' && r != '\t' }) {
			return Doc{}, ErrNotText // a binary file given by mistake: say so, not which byte JSON choked on
		}
		return Doc{}, err
	}
	switch {
	case d.ID == "":
		return Doc{}, ErrNoID
	case d.Text == "":
		return Doc{}, ErrNoText
	}
	return d, nil
}
