package extract

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// A Format is an input format for captions.
type Format string

// The input formats. [FormatAuto] picks one by file extension: .jsonl,
// .ndjson and .json are JSON Lines, .csv is CSV, anything else plain text.
const (
	FormatAuto  Format = ""
	FormatText  Format = "text"  // one caption per line, blank lines skipped
	FormatJSONL Format = "jsonl" // one JSON object per line with "id" and "text"
	FormatCSV   Format = "csv"   // a header row, then one caption per row
)

// FormatFor returns the format [FormatAuto] picks for a file name.
func FormatFor(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson", ".json":
		return FormatJSONL
	case ".csv":
		return FormatCSV
	}
	return FormatText
}

// MaxCaptionBytes bounds one caption (one input line or CSV field). Real
// captions are under 4 KB; anything near this is a broken file, and reading
// it whole would let one bad line exhaust memory.
const MaxCaptionBytes = 1 << 20

// Sentinel errors wrapped in a [ParseError].
var (
	ErrNoText      = errors.New("caption has no text")
	ErrInvalidUTF8 = errors.New("invalid UTF-8")
	ErrNUL         = errors.New("NUL byte in text")
	ErrTooLong     = fmt.Errorf("caption longer than %d bytes", MaxCaptionBytes)
	ErrNoColumn    = errors.New("no such column in the CSV header")
	ErrNotText     = errors.New("not text")
	ErrRepeatedID  = errors.New("repeated id")
)

// A ParseError reports bad input at a line of a named file. Line is 1-based;
// Field names the JSON key or CSV column at fault, "" when the whole line is.
type ParseError struct {
	File  string
	Line  int
	Field string
	Err   error
	// Records is how many input records the error loses when more than
	// one: every data row of a CSV file whose header lacks the text column.
	Records int
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %q", e.Field)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// ReaderOptions configures a [Reader]. The zero value reads plain text from
// a source called "-".
type ReaderOptions struct {
	Name       string // file name used in errors; "" means "-" (standard input)
	Format     Format // FormatAuto chooses by Name's extension
	IDColumn   string // CSV column with the caption id; "" means "id"
	TextColumn string // CSV column with the caption text; "" means "text"
	// IDs, when several readers share it, makes an id that another of them
	// has read a repeated id too, as one read twice by this reader is; nil
	// means a set of this reader's own.
	IDs *IDSet
}

// An IDSet holds the ids that the readers sharing it have read, with
// where each was read, so that an id given twice is found wherever the
// two are: the second caption would silently replace the first. It keeps
// a 64-bit hash of each id, not the id.
type IDSet struct {
	seed  maphash.Seed
	at    map[uint64]idPlace
	names []string // of the inputs, by their index
}

type idPlace struct{ input, line int32 }

// NewIDSet returns an empty IDSet.
func NewIDSet() *IDSet {
	return &IDSet{seed: maphash.MakeSeed(), at: make(map[uint64]idPlace)}
}

// input registers one more input, named name, and returns its index.
func (s *IDSet) input(name string) int32 {
	s.names = append(s.names, name)
	return int32(len(s.names) - 1)
}

// add records id as read at line of input, or returns where it was read
// first.
func (s *IDSet) add(id string, input int32, line int) (first idPlace, repeated bool) {
	h := maphash.String(s.seed, id)
	if p, ok := s.at[h]; ok {
		return p, true
	}
	s.at[h] = idPlace{input: input, line: int32(line)}
	return idPlace{}, false
}

// A Reader reads captions from text, JSON Lines or CSV input. A bad record
// is reported as a *ParseError and the next call to Read moves on to the
// following record, so a caller may skip bad input and keep going.
type Reader struct {
	opts ReaderOptions
	br   *bufio.Reader
	line int

	csv      *csv.Reader
	idCol    int // -1 when the CSV has no id column
	textCol  int
	header   []string
	headerOK bool
	sniffed  bool  // the head of the input was checked for binary data
	fatal    error // an error after which nothing more can be read

	ids   *IDSet // the ids read: opts.IDs, or this reader's own
	input int32  // this reader's index in ids
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader, opts ReaderOptions) *Reader {
	if opts.Name == "" {
		opts.Name = "-"
	}
	if opts.Format == FormatAuto {
		opts.Format = FormatFor(opts.Name)
	}
	if opts.IDColumn == "" {
		opts.IDColumn = "id"
	}
	if opts.TextColumn == "" {
		opts.TextColumn = "text"
	}
	rd := &Reader{opts: opts, br: bufio.NewReaderSize(r, 64<<10)}
	if opts.Format == FormatCSV {
		rd.csv = csv.NewReader(&limitedLines{r: rd.br})
		rd.csv.FieldsPerRecord = -1
		rd.csv.ReuseRecord = true
	}
	return rd
}

// Read returns the next caption, or io.EOF after the last one.
func (r *Reader) Read() (Caption, error) {
	if r.fatal != nil {
		return Caption{}, r.fatal
	}
	if !r.sniffed {
		r.sniffed = true
		if err := r.sniff(); err != nil {
			r.fatal = err
			return Caption{}, err
		}
	}
	switch r.opts.Format {
	case FormatCSV:
		return r.readCSV()
	case FormatJSONL:
		return r.readJSONL()
	case FormatText:
		return r.readText()
	}
	r.fatal = fmt.Errorf("%s: unknown input format %q (want text, jsonl or csv)", r.opts.Name, r.opts.Format)
	return Caption{}, r.fatal
}

// sniff refuses input that is not text: when a tenth of its first 8 KiB
// is control bytes or invalid UTF-8, it is an image, an archive or a
// database, whose "lines" would become junk captions. A stray bad byte in
// a text file stays an error about its line.
func (r *Reader) sniff() error {
	head, _ := r.br.Peek(8 << 10)
	if len(head) < 64 {
		return nil
	}
	bad := 0
	for i := 0; i < len(head); {
		c, size := utf8.DecodeRune(head[i:])
		switch {
		case c == utf8.RuneError && size == 1 && i+utf8.UTFMax < len(head): // not a rune cut at the end of the head
			bad++
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f':
			bad++
		}
		i += size
	}
	if bad*10 >= len(head) {
		return fmt.Errorf("%s: %w: %d of its first %d bytes are control bytes or invalid UTF-8; capgraph reads plain text, JSON Lines or CSV", r.opts.Name, ErrNotText, bad, len(head))
	}
	return nil
}

// All returns the remaining captions as a sequence. A *ParseError about one
// record does not end it; an error after which nothing more can be read
// (a CSV header without the text column, a failing reader) does.
func (r *Reader) All() iter.Seq2[Caption, error] {
	return func(yield func(Caption, error) bool) {
		for {
			c, err := r.Read()
			if err == io.EOF {
				return
			}
			if !yield(c, err) {
				return
			}
			if err != nil {
				if _, ok := errors.AsType[*ParseError](err); !ok || r.fatal != nil {
					return
				}
			}
		}
	}
}

func (r *Reader) errorf(line int, field string, err error) *ParseError {
	return &ParseError{File: r.opts.Name, Line: line, Field: field, Err: err}
}

// nextLine returns the next line without its line ending. A line longer
// than MaxCaptionBytes is consumed and reported as ErrTooLong.
func (r *Reader) nextLine() ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxCaptionBytes+2 { // +2 for "\r\n"
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(buf) == 0 && !tooLong {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			r.fatal = fmt.Errorf("%s: %w", r.opts.Name, err)
			return nil, r.fatal
		}
		r.line++
		if tooLong {
			return nil, r.errorf(r.line, "", ErrTooLong)
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		if r.line == 1 {
			buf = bytes.TrimPrefix(buf, []byte("\uFEFF")) // a BOM is not part of the first caption
		}
		return buf, nil
	}
}

// checkText validates a caption's text and returns its cleaned form.
func checkText(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", ErrInvalidUTF8
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "", ErrNUL
	}
	if strings.TrimSpace(s) == "" {
		return "", ErrNoText
	}
	return s, nil
}

func (r *Reader) readText() (Caption, error) {
	for {
		line, err := r.nextLine()
		if err != nil {
			return Caption{}, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		text, err := checkText(string(line))
		if err != nil {
			return Caption{}, r.errorf(r.line, "", err)
		}
		// A line has no id of its own: it is named by its text, as a JSON
		// or CSV record without one is, so that the same caption gets the
		// same id however the file is named or piped in.
		id := TextID(text)
		if err := r.checkRepeat(id, text, r.line); err != nil {
			return Caption{}, err
		}
		return Caption{ID: id, Text: text}, nil
	}
}

func (r *Reader) readJSONL() (Caption, error) {
	for {
		line, err := r.nextLine()
		if err != nil {
			return Caption{}, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !utf8.Valid(line) {
			return Caption{}, r.errorf(r.line, "", ErrInvalidUTF8)
		}
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(line, &rec); err != nil {
			return Caption{}, r.errorf(r.line, "", fmt.Errorf("invalid JSON: %w", err))
		}
		var c Caption
		if raw, ok := rec["text"]; ok {
			if err := json.Unmarshal(raw, &c.Text); err != nil {
				return Caption{}, r.errorf(r.line, "text", errors.New("not a string"))
			}
		}
		if c.Text, err = checkText(c.Text); err != nil {
			return Caption{}, r.errorf(r.line, "text", err)
		}
		if raw, ok := rec["id"]; ok && string(raw) != "null" {
			id, err := jsonID(raw)
			if err != nil {
				return Caption{}, r.errorf(r.line, "id", err)
			}
			c.ID = id
		}
		if c.ID == "" {
			c.ID = TextID(c.Text)
		}
		if err := r.checkRepeat(c.ID, c.Text, r.line); err != nil {
			return Caption{}, err
		}
		delete(rec, "id")
		delete(rec, "text")
		if len(rec) > 0 {
			c.Meta = rec
		}
		return c, nil
	}
}

// checkRepeat reports an id that an earlier record of this input, or of
// another input sharing its IDSet, has: loading both would keep only the
// second. An id derived from the text repeats when the text does.
func (r *Reader) checkRepeat(id, text string, line int) error {
	if r.ids == nil {
		r.ids = r.opts.IDs
		if r.ids == nil {
			r.ids = NewIDSet()
		}
		r.input = r.ids.input(r.opts.Name)
	}
	first, repeated := r.ids.add(id, r.input, line)
	if !repeated {
		return nil
	}
	where := fmt.Sprintf("line %d", first.line)
	if first.input != r.input {
		where = fmt.Sprintf("%s line %d", r.ids.names[first.input], first.line)
	}
	if id == TextID(text) {
		// The user wrote no id: say what they did write twice.
		return r.errorf(line, "id", fmt.Errorf("%w: the same caption as %s (a caption without an id is named by its text)", ErrRepeatedID, where))
	}
	return r.errorf(line, "id", fmt.Errorf("%w: %q is the id of %s too", ErrRepeatedID, id, where))
}

// jsonID accepts a string or a number as a caption id.
func jsonID(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", errors.New("not a string or number")
}

func (r *Reader) readCSV() (Caption, error) {
	if !r.headerOK {
		rec, err := r.csv.Read()
		if err == io.EOF {
			return Caption{}, io.EOF
		}
		if err != nil {
			r.fatal = r.csvError(err)
			return Caption{}, r.fatal
		}
		r.header = append([]string(nil), rec...)
		if len(r.header) > 0 {
			r.header[0] = strings.TrimPrefix(r.header[0], "\uFEFF")
		}
		r.idCol, r.textCol = -1, -1
		for i, h := range r.header {
			switch strings.TrimSpace(h) {
			case r.opts.IDColumn:
				r.idCol = i
			case r.opts.TextColumn:
				r.textCol = i
			}
		}
		if r.textCol < 0 {
			// Every row is lost: count them, so that a skipped file is
			// counted for what it held.
			n := 0
			for {
				if _, err := r.csv.Read(); err == io.EOF {
					break
				} else if _, ok := errors.AsType[*csv.ParseError](err); err != nil && !ok {
					break
				}
				n++
			}
			pe := r.errorf(1, r.opts.TextColumn, fmt.Errorf("%w (header has %s)", ErrNoColumn, strings.Join(r.header, ", ")))
			pe.Records = n
			r.fatal = pe
			return Caption{}, r.fatal
		}
		r.headerOK = true
	}
	rec, err := r.csv.Read()
	if err == io.EOF {
		return Caption{}, io.EOF
	}
	if err != nil {
		if _, ok := errors.AsType[*csv.ParseError](err); ok {
			return Caption{}, r.csvError(err)
		}
		if errors.Is(err, ErrTooLong) {
			r.fatal = r.errorf(0, "", err)
			return Caption{}, r.fatal
		}
		r.fatal = fmt.Errorf("%s: %w", r.opts.Name, err)
		return Caption{}, r.fatal
	}
	line, _ := r.csv.FieldPos(0)
	if r.textCol >= len(rec) {
		return Caption{}, r.errorf(line, r.opts.TextColumn, fmt.Errorf("row has %d fields, header has %d", len(rec), len(r.header)))
	}
	var c Caption
	if c.Text, err = checkText(rec[r.textCol]); err != nil {
		return Caption{}, r.errorf(line, r.opts.TextColumn, err)
	}
	if r.idCol >= 0 && r.idCol < len(rec) {
		c.ID = strings.TrimSpace(rec[r.idCol])
	}
	if c.ID == "" {
		c.ID = TextID(c.Text)
	}
	if err := r.checkRepeat(c.ID, c.Text, line); err != nil {
		return Caption{}, err
	}
	for i, v := range rec {
		if i == r.idCol || i == r.textCol || i >= len(r.header) {
			continue
		}
		if c.Meta == nil {
			c.Meta = make(map[string]json.RawMessage)
		}
		b, _ := json.Marshal(v)
		c.Meta[r.header[i]] = b
	}
	return c, nil
}

func (r *Reader) csvError(err error) error {
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		return r.errorf(pe.Line, "", pe.Err)
	}
	return fmt.Errorf("%s: %w", r.opts.Name, err)
}

// limitedLines fails a read once a single line exceeds MaxCaptionBytes, so
// that a CSV file with a runaway quoted field cannot exhaust memory.
type limitedLines struct {
	r   io.Reader
	run int // bytes since the last newline
}

func (l *limitedLines) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			l.run = 0
		} else if l.run++; l.run > MaxCaptionBytes {
			return 0, ErrTooLong
		}
	}
	return n, err
}

// TextID returns the stable id given to a caption that has none: a prefix
// of the SHA-256 of its text, so the same text always gets the same id.
func TextID(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256-" + hex.EncodeToString(sum[:12])
}
