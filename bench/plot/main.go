// Plot draws the scale figures from the TSV that bench/run.sh writes: build
// time per caption and peak memory against corpus size, and the totals on
// log-log axes beside a line of linear growth.
//
//	go run ./bench/plot -in bench/results/scale.tsv -out bench/results/scale.png
//
// Rows of the same size (repeated runs) are reduced to their median.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func main() {
	in := flag.String("in", "bench/results/scale.tsv", "scale `file` written by bench/run.sh")
	out := flag.String("out", "bench/results/scale.png", "PNG `file` to write")
	title := flag.String("title", "", "figure title (default: from the backend column)")
	flag.Parse()
	if err := run(*in, *out, *title); err != nil {
		fmt.Fprintf(os.Stderr, "plot: %v\n", err)
		os.Exit(1)
	}
}

// A table holds the median of each column by corpus size, sizes ascending.
type table struct {
	sizes   []float64
	cols    map[string][]float64 // NaN where a size has no value
	backend string
}

func readTable(path string) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	idx := make(map[string]int, len(header))
	for i, h := range header {
		idx[h] = i
	}
	if _, ok := idx["size"]; !ok {
		return nil, fmt.Errorf("%s: no size column", path)
	}
	t := &table{cols: make(map[string][]float64)}
	bySize := map[float64]map[string][]float64{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		size, err := strconv.ParseFloat(rec[idx["size"]], 64)
		if err != nil || size <= 0 {
			continue
		}
		if i, ok := idx["backend"]; ok && i < len(rec) {
			t.backend = rec[i]
		}
		m := bySize[size]
		if m == nil {
			m = map[string][]float64{}
			bySize[size] = m
			t.sizes = append(t.sizes, size)
		}
		for name, i := range idx {
			if i >= len(rec) {
				continue
			}
			if v, err := strconv.ParseFloat(rec[i], 64); err == nil && !math.IsNaN(v) {
				m[name] = append(m[name], v)
			}
		}
	}
	if len(t.sizes) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	slices.Sort(t.sizes)
	for name := range idx {
		col := make([]float64, len(t.sizes))
		for j, size := range t.sizes {
			col[j] = median(bySize[size][name])
		}
		t.cols[name] = col
	}
	return t, nil
}

// median returns the median of vs, or NaN if vs is empty.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(vs))
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// series returns the points (size, f(size, row j)) that are finite and, for
// log axes, positive.
func (t *table) series(positive bool, f func(j int) float64) plotter.XYs {
	var xys plotter.XYs
	for j, x := range t.sizes {
		y := f(j)
		if math.IsNaN(y) || math.IsInf(y, 0) || (positive && y <= 0) {
			continue
		}
		xys = append(xys, plotter.XY{X: x, Y: y})
	}
	return xys
}

func (t *table) col(name string) []float64 {
	if c, ok := t.cols[name]; ok {
		return c
	}
	c := make([]float64, len(t.sizes))
	for i := range c {
		c[i] = math.NaN()
	}
	return c
}

var (
	blue   = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	orange = color.RGBA{R: 255, G: 127, B: 14, A: 255}
	green  = color.RGBA{R: 44, G: 160, B: 44, A: 255}
	grey   = color.RGBA{R: 128, G: 128, B: 128, A: 255}
)

// addSeries adds a line with point markers to p and to its legend.
func addSeries(p *plot.Plot, name string, xys plotter.XYs, c color.Color, shape draw.GlyphDrawer) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	s.Color = c
	s.Shape = shape
	s.Radius = vg.Points(3)
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// addLinear adds a dashed line through the first point of xys with slope 1
// on log-log axes: what linear growth from that point would look like.
func addLinear(p *plot.Plot, xys plotter.XYs, maxX float64) error {
	if len(xys) == 0 || maxX <= xys[0].X {
		return nil
	}
	x0, y0 := xys[0].X, xys[0].Y
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: maxX, Y: y0 * maxX / x0}})
	if err != nil {
		return err
	}
	l.Color = grey
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	p.Legend.Add("linear growth", l)
	return nil
}

func newPlot(title, ylabel string, logY bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "corpus size (captions, log scale)"
	p.Y.Label.Text = ylabel
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Label.Text += " (log scale)"
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Millimeter * 2
	p.Legend.YOffs = -vg.Millimeter
	p.Add(plotter.NewGrid())
	return p
}

// padRange widens the axes so that points sit inside the frame, and keeps
// linear y axes starting at 0, so that flat reads as flat.
func padRange(p *plot.Plot, logY bool) {
	p.X.Min /= 1.5
	p.X.Max *= 1.5
	if logY {
		if p.Y.Min <= 0 || p.Y.Min == p.Y.Max {
			p.Y.Min = p.Y.Max / 10
		}
		p.Y.Min /= 1.5
		p.Y.Max *= 4 // room for the legend
		return
	}
	p.Y.Min = 0
	p.Y.Max *= 1.45 // room for the legend
	if p.Y.Max == 0 {
		p.Y.Max = 1
	}
}

func run(in, out, title string) error {
	t, err := readTable(in)
	if err != nil {
		return err
	}
	if title == "" {
		title = "capgraph build cost against corpus size"
		if t.backend != "" {
			title += " (" + t.backend + " store)"
		}
	}
	maxX := t.sizes[len(t.sizes)-1]
	wall, rerun, rss, store := t.col("build_wall_s"), t.col("rerun_wall_s"), t.col("peak_rss_kb"), t.col("store_bytes")
	extractCPS := t.col("extract_cps")

	// Top left: time per caption. Linear growth in total time is a flat line.
	perCaption := newPlot("Time per caption", "µs per caption", false)
	err = errors.Join(
		addSeries(perCaption, "build", t.series(false, func(j int) float64 { return wall[j] / t.sizes[j] * 1e6 }), blue, draw.CircleGlyph{}),
		addSeries(perCaption, "rebuild, nothing changed", t.series(false, func(j int) float64 { return rerun[j] / t.sizes[j] * 1e6 }), orange, draw.SquareGlyph{}),
		addSeries(perCaption, "extract only", t.series(false, func(j int) float64 { return 1e6 / extractCPS[j] }), green, draw.TriangleGlyph{}),
	)
	if err != nil {
		return err
	}
	padRange(perCaption, false)

	// Top right: peak memory of the build.
	mem := newPlot("Peak memory of the build", "peak RSS (MB)", false)
	if err := addSeries(mem, "build peak RSS", t.series(false, func(j int) float64 { return rss[j] / 1024 }), blue, draw.CircleGlyph{}); err != nil {
		return err
	}
	padRange(mem, false)

	// Bottom left: total build time, log-log, against linear growth.
	total := newPlot("Total build wall time", "seconds", true)
	buildXYs := t.series(true, func(j int) float64 { return wall[j] })
	err = errors.Join(
		addSeries(total, "build", buildXYs, blue, draw.CircleGlyph{}),
		addSeries(total, "rebuild, nothing changed", t.series(true, func(j int) float64 { return rerun[j] }), orange, draw.SquareGlyph{}),
		addLinear(total, buildXYs, maxX),
	)
	if err != nil {
		return err
	}
	padRange(total, true)

	// Bottom right: peak RSS and store size, log-log.
	space := newPlot("Memory and disk", "MB", true)
	rssXYs := t.series(true, func(j int) float64 { return rss[j] / 1024 })
	err = errors.Join(
		addSeries(space, "build peak RSS", rssXYs, blue, draw.CircleGlyph{}),
		addSeries(space, "store on disk", t.series(true, func(j int) float64 { return store[j] / (1 << 20) }), orange, draw.SquareGlyph{}),
		addLinear(space, rssXYs, maxX),
	)
	if err != nil {
		return err
	}
	padRange(space, true)

	const w, h = 30 * vg.Centimeter, 24 * vg.Centimeter
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))
	dc := draw.New(img)
	head := plot.New()
	head.Title.Text = title
	top := draw.Crop(dc, 0, 0, 0, -vg.Centimeter)
	// The title strip above the grid.
	headCanvas := draw.Crop(dc, 0, 0, h-vg.Centimeter, 0)
	headCanvas.FillText(head.Title.TextStyle, vg.Point{X: w / 2, Y: h - vg.Centimeter/2}, title)
	plots := [][]*plot.Plot{{perCaption, mem}, {total, space}}
	tiles := draw.Tiles{Rows: 2, Cols: 2, PadX: vg.Centimeter, PadY: vg.Centimeter, PadTop: vg.Millimeter * 3, PadBottom: vg.Millimeter * 3, PadLeft: vg.Millimeter * 3, PadRight: vg.Millimeter * 3}
	canvases := plot.Align(plots, tiles, top)
	for i := range plots {
		for j := range plots[i] {
			plots[i][j].Draw(canvases[i][j])
		}
	}

	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	return f.Close()
}
