package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/capgraph/capgraph/extract/synth"
)

type genOptions struct {
	Captions int
	Seed     uint64
	Format   string
	Output   string
}

func newGenCmd(a *app, runF func(context.Context, *genOptions) error) *cobra.Command {
	opts := &genOptions{}
	cmd := &cobra.Command{
		Use:   "gen [flags]",
		Short: "Generate a synthetic caption corpus for measurement",
		Long: `Gen writes synthetic captions in wire style (Reuters, AP, AFP, Getty, EPA
credits; real places, armed groups and agencies from the gazetteer; invented
photographers and people) for measuring build time, memory and query latency
at scale. The same --captions and --seed give byte-identical output, and the
first N captions of a larger run are the N captions of a smaller one.

Formats:
  jsonl  one {"id","text","synthetic":true} object per line, as extract and
         build read it
  text   one caption per line (the newline before a credit line becomes a space)
  csv    a header row "id,text", then one row per caption`,
		Example: `  $ capgraph gen --captions 100000 --seed 1 > corpus.jsonl
  $ capgraph gen --captions 10 -f text
  $ capgraph gen --captions 1000000 -o big.jsonl && capgraph build big.jsonl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.NoArgs(cmd, args); err != nil {
				return &usageError{err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Captions < 0 {
				return &usageError{fmt.Errorf("--captions: %d is negative", opts.Captions)}
			}
			switch opts.Format {
			case "jsonl", "text", "csv":
			default:
				return &usageError{fmt.Errorf("--format: %q is not one of jsonl, text, csv", opts.Format)}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return a.runGen(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&opts.Captions, "captions", "n", 1000, "number of `captions` to write")
	f.Uint64Var(&opts.Seed, "seed", 1, "random `seed`; the same seed gives the same corpus")
	f.StringVarP(&opts.Format, "format", "f", "jsonl", "output `format`: jsonl, text or csv")
	f.StringVarP(&opts.Output, "output", "o", "", "write to `file` instead of stdout")
	return cmd
}

func (a *app) runGen(ctx context.Context, opts *genOptions) (err error) {
	g, err := synth.New(opts.Seed)
	if err != nil {
		return err
	}
	w, closeOut, err := a.createOutput(opts.Output)
	if err != nil {
		return err
	}
	defer finishOutput(closeOut, &err)
	bw := bufio.NewWriterSize(w, 256<<10)
	var cw *csv.Writer
	if opts.Format == "csv" {
		cw = csv.NewWriter(bw)
		if err := cw.Write([]string{"id", "text"}); err != nil {
			return err
		}
	}
	var text, line []byte
	for i := range opts.Captions {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		text = g.AppendText(text[:0], i)
		id := synth.ID(i)
		switch opts.Format {
		case "csv":
			if err := cw.Write([]string{id, string(text)}); err != nil {
				return err
			}
			continue
		case "text":
			line = append(bytes.ReplaceAll(text, []byte("\n"), []byte(" ")), '\n')
		default:
			line = append(line[:0], `{"id":"`...)
			line = append(line, id...)
			line = append(line, `","text":`...)
			line = appendJSONString(line, text)
			line = append(line, ",\"synthetic\":true}\n"...)
		}
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	if cw != nil {
		if cw.Flush(); cw.Error() != nil {
			return cw.Error()
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if !a.cfg.Quiet && opts.Output != "" && opts.Output != "-" {
		fmt.Fprintf(a.stderr, "wrote %d captions to %s\n", opts.Captions, opts.Output)
	}
	return nil
}

// appendJSONString appends s, valid UTF-8, as a JSON string.
func appendJSONString(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == '\u2028' || r == '\u2029' {
				b = append(b, `\u202`...)
				b = append(b, hex[r&0xf])
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return append(b, '"')
}
