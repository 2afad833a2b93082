// Command worldgen converts Natural Earth country outlines, as TopoJSON
// from the npm package world-atlas (countries-110m.json), into the compact
// file the capgraph web page draws its map from: one SVG path per country
// in an equirectangular projection (x = longitude, y = -latitude, degrees).
// It was run once:
//
//	npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
//	go run ./cmd/capgraph/internal/web/internal/worldgen package/countries-110m.json > cmd/capgraph/internal/web/static/world.json
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"math"
	"os"
	"strconv"
	"strings"
)

type topology struct {
	Transform struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Arcs    [][][2]float64 `json:"arcs"`
	Objects map[string]struct {
		Geometries []struct {
			Type       string            `json:"type"`
			ID         string            `json:"id"`
			Arcs       json.RawMessage   `json:"arcs"`
			Properties map[string]string `json:"properties"`
		} `json:"geometries"`
	} `json:"objects"`
}

type country struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	D    string `json:"d"`
}

func main() {
	log.SetFlags(0)
	if len(os.Args) != 2 {
		log.Fatal("usage: worldgen countries-110m.json > world.json")
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	var t topology
	if err := json.Unmarshal(data, &t); err != nil {
		log.Fatal(err)
	}
	// Decode the delta-encoded, quantized arcs to degrees.
	arcs := make([][][2]float64, len(t.Arcs))
	for i, a := range t.Arcs {
		var x, y float64
		for _, p := range a {
			x, y = x+p[0], y+p[1]
			arcs[i] = append(arcs[i], [2]float64{x*t.Transform.Scale[0] + t.Transform.Translate[0], y*t.Transform.Scale[1] + t.Transform.Translate[1]})
		}
	}
	ring := func(idx []int) string {
		var pts [][2]float64
		for _, i := range idx {
			a := arcs[max(i, ^i)]
			if i < 0 {
				r := make([][2]float64, len(a))
				for j := range a {
					r[j] = a[len(a)-1-j]
				}
				a = r
			}
			if len(pts) > 0 {
				a = a[1:] // arcs share their end points
			}
			pts = append(pts, a...)
		}
		var b strings.Builder
		prev, shift := math.NaN(), 0.0
		for j, p := range pts {
			lon := p[0] + shift
			if !math.IsNaN(prev) && math.Abs(lon-prev) > 180 { // unwrap at the antimeridian
				if lon > prev {
					shift -= 360
				} else {
					shift += 360
				}
				lon = p[0] + shift
			}
			prev = lon
			if j == 0 {
				b.WriteString("M")
			} else {
				b.WriteString("L")
			}
			b.WriteString(num(lon) + "," + num(-p[1]))
		}
		b.WriteString("Z")
		return b.String()
	}
	out := struct {
		Attribution string    `json:"attribution"`
		Countries   []country `json:"countries"`
	}{Attribution: "Country outlines: Natural Earth 1:110m (public domain), via the world-atlas npm package 2.0.2 (ISC, Michael Bostock)."}
	for _, g := range t.Objects["countries"].Geometries {
		var d strings.Builder
		switch g.Type {
		case "Polygon":
			var rings [][]int
			if err := json.Unmarshal(g.Arcs, &rings); err != nil {
				log.Fatal(err)
			}
			for _, r := range rings {
				d.WriteString(ring(r))
			}
		case "MultiPolygon":
			var polys [][][]int
			if err := json.Unmarshal(g.Arcs, &polys); err != nil {
				log.Fatal(err)
			}
			for _, p := range polys {
				for _, r := range p {
					d.WriteString(ring(r))
				}
			}
		default:
			continue
		}
		out.Countries = append(out.Countries, country{ID: g.ID, Name: g.Properties["name"], D: d.String()})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "%d countries\n", len(out.Countries))
}

func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }
