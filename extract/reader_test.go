package extract_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/capgraph/capgraph/extract"
)

func readAll(t *testing.T, in string, opts extract.ReaderOptions) ([]extract.Caption, []error) {
	t.Helper()
	var caps []extract.Caption
	var errs []error
	for c, err := range extract.NewReader(strings.NewReader(in), opts).All() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		caps = append(caps, c)
	}
	return caps, errs
}

func TestReader(t *testing.T) {
	long := strings.Repeat("x", extract.MaxCaptionBytes+10)
	tests := []struct {
		name    string
		in      string
		opts    extract.ReaderOptions
		ids     []string // wanted caption ids, in order
		errs    []string // wanted error messages, in order
		sentErr error    // a sentinel the first error wraps
	}{
		{name: "text", in: "One caption.\n\nTwo caption.\r\n", opts: extract.ReaderOptions{Name: "a.txt"},
			ids: []string{extract.TextID("One caption."), extract.TextID("Two caption.")}},
		{name: "text without final newline", in: "Only one", opts: extract.ReaderOptions{Name: "b.txt"},
			ids: []string{extract.TextID("Only one")}},
		{name: "empty file", in: "", opts: extract.ReaderOptions{Name: "e.txt"}},
		{name: "bom", in: "\uFEFFCaption", opts: extract.ReaderOptions{Name: "bom.txt"}, ids: []string{extract.TextID("Caption")}},
		{name: "invalid utf8", in: "ok\nbad \xff byte\nok again\n", opts: extract.ReaderOptions{Name: "u.txt"},
			ids: []string{extract.TextID("ok"), extract.TextID("ok again")}, errs: []string{"u.txt:2: invalid UTF-8"}, sentErr: extract.ErrInvalidUTF8},
		{name: "nul byte", in: "nul \x00 here\n", opts: extract.ReaderOptions{Name: "n.txt"},
			errs: []string{"n.txt:1: NUL byte in text"}, sentErr: extract.ErrNUL},
		{name: "too long line then more", in: "first\n" + long + "\nlast\n", opts: extract.ReaderOptions{Name: "l.txt"},
			ids: []string{extract.TextID("first"), extract.TextID("last")}, errs: []string{"l.txt:2: caption longer than 1048576 bytes"}, sentErr: extract.ErrTooLong},
		{name: "jsonl", in: `{"id":"a","text":"One","source":"x"}` + "\n" + `{"id":7,"text":"Two"}` + "\n",
			opts: extract.ReaderOptions{Name: "c.jsonl"}, ids: []string{"a", "7"}},
		{name: "jsonl without id", in: `{"text":"Same text"}`, opts: extract.ReaderOptions{Name: "c.jsonl"},
			ids: []string{extract.TextID("Same text")}},
		{name: "malformed json on line 2", in: `{"id":"a","text":"One"}` + "\n" + `{"id": "b", "text": ` + "\n" + `{"id":"c","text":"Three"}`,
			opts: extract.ReaderOptions{Name: "m.jsonl"}, ids: []string{"a", "c"}, errs: []string{"m.jsonl:2: invalid JSON: unexpected end of JSON input"}},
		{name: "jsonl missing text", in: `{"id":"a"}`, opts: extract.ReaderOptions{Name: "t.jsonl"},
			errs: []string{`t.jsonl:1: field "text": caption has no text`}, sentErr: extract.ErrNoText},
		{name: "jsonl text not a string", in: `{"id":"a","text":3}`, opts: extract.ReaderOptions{Name: "t.jsonl"},
			errs: []string{`t.jsonl:1: field "text": not a string`}},
		{name: "jsonl bad id", in: `{"id":[1],"text":"x"}`, opts: extract.ReaderOptions{Name: "t.jsonl"},
			errs: []string{`t.jsonl:1: field "id": not a string or number`}},
		{name: "csv", in: "id,text,date\nc1,\"Caption, with comma\",2014\nc2,Second,2015\n", opts: extract.ReaderOptions{Name: "d.csv"},
			ids: []string{"c1", "c2"}},
		{name: "csv other columns", in: "key,caption\nk1,Hello\n", opts: extract.ReaderOptions{Name: "d.csv", IDColumn: "key", TextColumn: "caption"},
			ids: []string{"k1"}},
		{name: "csv without text column", in: "id,caption\n1,x\n", opts: extract.ReaderOptions{Name: "d.csv"},
			errs: []string{`d.csv:1: field "text": no such column in the CSV header (header has id, caption)`}, sentErr: extract.ErrNoColumn},
		{name: "csv bad quote", in: "id,text\n1,\"open\n", opts: extract.ReaderOptions{Name: "q.csv"},
			errs: []string{`q.csv:2: extraneous or missing " in quoted-field`}},
		{name: "csv empty text", in: "id,text\n1,\n2,ok\n", opts: extract.ReaderOptions{Name: "d.csv"},
			ids: []string{"2"}, errs: []string{`d.csv:2: field "text": caption has no text`}},
		{name: "format by flag", in: `{"id":"j","text":"x"}`, opts: extract.ReaderOptions{Name: "-", Format: extract.FormatJSONL},
			ids: []string{"j"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caps, errs := readAll(t, tt.in, tt.opts)
			var ids []string
			for _, c := range caps {
				ids = append(ids, c.ID)
			}
			if strings.Join(ids, "|") != strings.Join(tt.ids, "|") {
				t.Errorf("ids = %q, want %q", ids, tt.ids)
			}
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Error())
			}
			if strings.Join(msgs, "|") != strings.Join(tt.errs, "|") {
				t.Errorf("errors = %q, want %q", msgs, tt.errs)
			}
			if tt.sentErr != nil && (len(errs) == 0 || !errors.Is(errs[0], tt.sentErr)) {
				t.Errorf("first error %v does not wrap %v", errs, tt.sentErr)
			}
			for _, e := range errs {
				if _, ok := errors.AsType[*extract.ParseError](e); !ok {
					t.Errorf("error %v is not a *ParseError", e)
				}
			}
		})
	}
}

func TestReaderMeta(t *testing.T) {
	caps, errs := readAll(t, `{"id":"a","text":"T","source":"http://x","tags":["a"]}`, extract.ReaderOptions{Name: "m.jsonl"})
	if len(errs) > 0 || len(caps) != 1 {
		t.Fatalf("got %v, %v", caps, errs)
	}
	if got := string(caps[0].Meta["source"]); got != `"http://x"` {
		t.Errorf("meta source = %s", got)
	}
	if _, ok := caps[0].Meta["id"]; ok {
		t.Error("id kept in meta")
	}
}

func TestReaderEOF(t *testing.T) {
	r := extract.NewReader(strings.NewReader(""), extract.ReaderOptions{})
	for range 2 {
		if _, err := r.Read(); err != io.EOF {
			t.Fatalf("Read on empty input = %v, want io.EOF", err)
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add("a caption\n\nanother\n", "text")
	f.Add(`{"id":"x","text":"y"}`+"\n{", "jsonl")
	f.Add("id,text\n1,\"a\"\"b\"\n", "csv")
	f.Fuzz(func(t *testing.T, in, format string) {
		switch format {
		case "text", "jsonl", "csv":
		default:
			return
		}
		lines := strings.Count(in, "\n") + 1
		for c, err := range extract.NewReader(strings.NewReader(in), extract.ReaderOptions{Name: "f", Format: extract.Format(format)}).All() {
			if err != nil {
				pe, ok := errors.AsType[*extract.ParseError](err)
				if !ok {
					t.Fatalf("error %v is not a *ParseError", err)
				}
				if pe.Line < 0 || pe.Line > lines {
					t.Fatalf("error line %d outside 0..%d", pe.Line, lines)
				}
				continue
			}
			if c.ID == "" || strings.TrimSpace(c.Text) == "" || strings.ContainsRune(c.Text, 0) {
				t.Fatalf("bad caption %+v", c)
			}
			if !strings.Contains(in, c.Text) && format != "jsonl" && format != "csv" {
				t.Fatalf("text %q not in input", c.Text)
			}
		}
	})
}

func ExampleNewReader() {
	in := "id,text,source\nap-1,\"Smoke rises over Homs, Syria.\",wire\n"
	r := extract.NewReader(strings.NewReader(in), extract.ReaderOptions{Name: "archive.csv"})
	for c, err := range r.All() {
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(c.ID, c.Text, string(c.Meta["source"]))
	}
	// Output:
	// ap-1 Smoke rises over Homs, Syria. "wire"
}

// TestReaderRefusesBinary: an image or archive given as captions is
// refused whole, not read as lines of junk; a text file with one bad byte
// is read, the bad line reported.
func TestReaderRefusesBinary(t *testing.T) {
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7 % 256)
	}
	var n int
	var err error
	for _, e := range extract.NewReader(bytes.NewReader(bin), extract.ReaderOptions{Name: "photo.jpg"}).All() {
		if e != nil {
			err = e
			continue
		}
		n++
	}
	if n != 0 || !errors.Is(err, extract.ErrNotText) || !strings.Contains(err.Error(), "photo.jpg") {
		t.Errorf("binary input: %d captions, error %v; want none and ErrNotText naming the file", n, err)
	}
	var sb strings.Builder
	for i := range 20 {
		fmt.Fprintf(&sb, "Man number %d walks in Aleppo, Syria.\n", i)
	}
	text := sb.String() + "one \x00 bad line\n"
	n, err = 0, nil
	for _, e := range extract.NewReader(strings.NewReader(text), extract.ReaderOptions{Name: "t.txt"}).All() {
		if e != nil {
			err = e
			continue
		}
		n++
	}
	if n != 20 || !errors.Is(err, extract.ErrNUL) {
		t.Errorf("text with one NUL: %d captions, error %v; want 20 and ErrNUL", n, err)
	}
}

// TestReaderCountsLostRows: a CSV whose header lacks the text column loses
// every row, and the error says how many.
func TestReaderCountsLostRows(t *testing.T) {
	in := "id,caption\n1,a\n2,b\n3,c\n"
	for _, err := range extract.NewReader(strings.NewReader(in), extract.ReaderOptions{Name: "d.csv"}).All() {
		pe, ok := errors.AsType[*extract.ParseError](err)
		if !ok || pe.Records != 3 {
			t.Errorf("error %v (%+v), want a ParseError for 3 records", err, pe)
		}
	}
}

// TestReaderRepeatedID: an id given twice in one input is an error at the
// second record naming the first, for JSON Lines and CSV, and for ids
// derived from a repeated text; the other records are read.
func TestReaderRepeatedID(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
	}{
		{"c.jsonl", `{"id":"a","text":"One"}` + "\n" + `{"id":"b","text":"Two"}` + "\n" + `{"id":"a","text":"Three"}` + "\n", `c.jsonl:3: field "id": repeated id: "a" is the id of line 1 too`},
		{"d.jsonl", `{"text":"Same"}` + "\n" + `{"text":"Same"}` + "\n", `d.jsonl:2: field "id": repeated id`},
		{"e.csv", "id,text\nx,One\ny,Two\nx,Three\n", `e.csv:4: field "id": repeated id: "x" is the id of line 2 too`},
		{"f.txt", "Same\nOther\nSame\n", `f.txt:3: field "id": repeated id: the same caption as line 1 (a caption without an id is named by its text)`},
	}
	for _, tt := range tests {
		var ids, errs []string
		for c, err := range extract.NewReader(strings.NewReader(tt.in), extract.ReaderOptions{Name: tt.name}).All() {
			if err != nil {
				if !errors.Is(err, extract.ErrRepeatedID) {
					t.Errorf("%s: %v, want ErrRepeatedID", tt.name, err)
				}
				errs = append(errs, err.Error())
				continue
			}
			ids = append(ids, c.ID)
		}
		if len(errs) != 1 || !strings.HasPrefix(errs[0], tt.want) {
			t.Errorf("%s: errors %q, want one starting %q", tt.name, errs, tt.want)
		}
		if len(ids) != strings.Count(tt.in, "\n")-1-strings.Count(tt.name, ".csv") {
			t.Errorf("%s: read %q", tt.name, ids)
		}
	}
}

// TestReaderRepeatedIDAcrossInputs: readers that share an IDSet report an
// id that another input has, naming that input and line, in any format;
// readers that do not share one read their inputs apart.
func TestReaderRepeatedIDAcrossInputs(t *testing.T) {
	inputs := []struct{ name, in string }{
		{"a.jsonl", `{"id":"x","text":"One"}` + "\n" + `{"id":"y","text":"Two"}` + "\n"},
		{"b.csv", "id,text\nz,Three\ny,Four\n"},
		{"c.txt", "Two\n"},
	}
	read := func(ids *extract.IDSet) (n int, errs []string) {
		for _, in := range inputs {
			for _, err := range extract.NewReader(strings.NewReader(in.in), extract.ReaderOptions{Name: in.name, IDs: ids}).All() {
				if err != nil {
					if !errors.Is(err, extract.ErrRepeatedID) {
						t.Errorf("%s: %v, want ErrRepeatedID", in.name, err)
					}
					errs = append(errs, err.Error())
					continue
				}
				n++
			}
		}
		return n, errs
	}
	n, errs := read(extract.NewIDSet())
	want := []string{`b.csv:3: field "id": repeated id: "y" is the id of a.jsonl line 2 too`}
	if n != 4 || len(errs) != 1 || !strings.HasPrefix(errs[0], want[0]) {
		t.Errorf("shared: read %d, errors %q; want 4 and one starting %q", n, errs, want[0])
	}
	if n, errs := read(nil); n != 5 || len(errs) != 0 {
		t.Errorf("apart: read %d, errors %q; want 5 and none", n, errs)
	}
}
