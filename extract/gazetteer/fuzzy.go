package gazetteer

// withinOne reports whether the Levenshtein distance between a and b (as
// bytes) is at most 1.
func withinOne(a, b string) bool {
	la, lb := len(a), len(b)
	if la < lb {
		a, b, la, lb = b, a, lb, la
	}
	if la-lb > 1 {
		return false
	}
	i := 0
	for i < lb && a[i] == b[i] {
		i++
	}
	if i == lb {
		return true // equal, or a has one extra byte at the end
	}
	if la == lb {
		return a[i+1:] == b[i+1:] // one substitution
	}
	return a[i+1:] == b[i:] // one deletion from a
}

// jaroWinkler returns the Jaro-Winkler similarity of a and b (as bytes), in
// [0, 1], with the usual prefix scale 0.1 over at most 4 bytes.
func jaroWinkler(a, b string) float64 {
	if a == b {
		return 1
	}
	la, lb := len(a), len(b)
	if la == 0 || lb == 0 {
		return 0
	}
	window := max(max(la, lb)/2-1, 0)
	var ma, mb [64]bool
	if la > 64 || lb > 64 {
		return 0
	}
	m := 0
	for i := range la {
		lo, hi := max(0, i-window), min(lb-1, i+window)
		for j := lo; j <= hi; j++ {
			if !mb[j] && a[i] == b[j] {
				ma[i], mb[j] = true, true
				m++
				break
			}
		}
	}
	if m == 0 {
		return 0
	}
	t, j := 0, 0
	for i := range la {
		if !ma[i] {
			continue
		}
		for !mb[j] {
			j++
		}
		if a[i] != b[j] {
			t++
		}
		j++
	}
	fm := float64(m)
	jaro := (fm/float64(la) + fm/float64(lb) + (fm-float64(t)/2)/fm) / 3
	p := 0
	for p < 4 && p < la && p < lb && a[p] == b[p] {
		p++
	}
	return jaro + float64(p)*0.1*(1-jaro)
}
