package extract

import "strings"

// eventAt links a named event to the place stated for it: "<event> in
// London", "<event> at Augusta National".
func (d *doc) eventAt(r *relSet) {
	for _, e := range d.body(Event) {
		for _, p := range d.body(Place) {
			if p.start < e.end || d.sent[p.ts] != d.sent[e.ts] {
				continue
			}
			gap := strings.ToLower(d.text[e.end:p.start])
			// "“I Love Damascus” marathon at X": the quote and the noun
			// that typed the event.
			gap = strings.TrimLeft(gap, "”\"")
			if w, rest, ok := strings.Cut(strings.TrimPrefix(gap, " "), " "); ok && eventNouns[w] {
				gap = " " + rest
			}
			if gap == " in " || gap == " at " || gap == " at the " || gap == " in the " {
				r.add(d.arg(e), EventAt, d.arg(p), 0.7)
			}
			break
		}
	}
}
