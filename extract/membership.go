package extract

import "strings"

// memberOf finds the depicted combatant and the group the caption says
// they belong to: "A <group> fighter", "Members of the <group>", "a
// soldier who defected to join the <group>"; and group-to-group membership:
// "<parent>'s <group>", "<group>, which operates under the <parent>",
// "<group> fighter, part of the <parent>".
func (d *doc) memberOf(r *relSet) {
	groups := d.body(ArmedGroup)
	// Group to parent group.
	for i, g := range groups {
		if i > 0 {
			p := groups[i-1]
			gap := d.maskedGap(p.end, g.start)
			if gap == "'s " || gap == "’s " || affiliateGap(gap) {
				r.add(d.arg(g), MemberOf, d.arg(p), 0.75)
			}
		}
		if i+1 < len(groups) && d.sent[groups[i+1].ts] == d.sent[g.ts] && partOfGap(d.maskedGap(g.end, groups[i+1].start)) {
			r.add(d.arg(g), MemberOf, d.arg(groups[i+1]), 0.75)
		}
	}
	// The depicted role: only the first sentence's first combatant counts.
	for i, t := range d.toks {
		if d.sent[i] != 0 {
			break
		}
		if !roleWords[t.lower] || d.owner[i] != nil {
			continue
		}
		if d.notDepicted(i) {
			continue
		}
		var g *mention
		// "<group> fighter": the group ends right before the role, or
		// one lower-case word before it ("Taliban security personnel").
		for _, e := range []int{i, i - 1} {
			if g != nil || e < 1 || e < i && (d.owner[e] != nil || isUpperStart(d.toks[e].text) || d.text[d.toks[e].end:t.start] != " ") {
				continue
			}
			if m := d.mentionAtToken(e - 1); m != nil && m.typ == ArmedGroup && m.te == e {
				if gap := d.text[m.end:d.toks[e].start]; gap == " " {
					if !d.notDepicted(m.ts) {
						g = m
					}
				}
			}
		}
		// "Members of the <group>", "fighters from <group>", "Marines with
		// the <unit>", "Fighters loyal to the <group>", "officers serving
		// with the <mission>".
		if g == nil && i+1 < len(d.toks) {
			k := i + 1
			w := d.toks[k].lower
			if w == "loyal" && k+1 < len(d.toks) && d.toks[k+1].lower == "to" {
				k, w = k+1, "to"
			}
			// "officers serving with the <mission>", "serving in the <unit>".
			if w == "serving" && k+1 < len(d.toks) && (d.toks[k+1].lower == "with" || d.toks[k+1].lower == "in") {
				k, w = k+1, "with"
			}
			if w == "of" || w == "from" || w == "with" || w == "to" && d.toks[k-1].lower == "loyal" {
				k++
				if k < len(d.toks) && d.toks[k].lower == "the" {
					k++
				}
				g = d.groupFrom(k)
			}
		}
		// "a soldier, who has defected to join the <group>".
		if g == nil {
			rest := strings.ToLower(d.text[t.end:min(len(d.text), t.end+50)])
			for _, cue := range []string{" who defected to join the ", ", who has defected to join the ", ", who defected to join the ", " who has defected to join the ", " who joined the "} {
				if strings.HasPrefix(rest, cue) {
					if m := d.mentionAtToken(d.tokenAt(t.end + len(cue))); m != nil && m.typ == ArmedGroup {
						g = m
					}
				}
			}
		}
		if g == nil {
			continue
		}
		role := roleArg(t.text)
		r.add(role, MemberOf, d.arg(g), 0.75)
		// "..., part of the Free Syrian Army": the member belongs to the parent too.
		rest := d.text[t.end:]
		if strings.HasPrefix(rest, " (") {
			if cl := strings.IndexByte(rest, ')'); cl > 0 && cl < 8 {
				rest = rest[cl+1:]
			}
		}
		for _, cue := range []string{", part of the ", ", part of "} {
			if strings.HasPrefix(strings.ToLower(rest), cue) {
				if m := d.mentionAtToken(d.tokenAt(len(d.text) - len(rest) + len(cue))); m != nil && m.typ == ArmedGroup {
					r.add(role, MemberOf, d.arg(m), 0.7)
				}
			}
		}
		return
	}
}

// groupFrom reads the group a role belongs to from token k on, past
// modifiers: "the US-backed Syrian Democratic Forces", "Ukraine's Azov
// Regiment", "al Qaeda's Nusra Front", "al Qaeda's Syrian affiliate, the
// Nusra Front" (the inner group in the last two).
func (d *doc) groupFrom(k int) *mention {
	for steps := 0; k < len(d.toks) && steps < 4; steps++ {
		m := d.mentionAtToken(k)
		if m == nil || m.ts != k {
			if fillerWord(d.toks[k].lower) || d.toks[k].lower == "led" || d.toks[k].lower == "backed" || demonyms[d.toks[k].lower] {
				k++
				continue
			}
			return nil
		}
		poss := m.te+1 < len(d.toks) && d.toks[m.te].lower == "s" && isApostrophe(d.text[m.end:d.toks[m.te].start])
		switch {
		case m.typ == ArmedGroup && poss:
			// "al Qaeda's Nusra Front", "al Qaeda's Syrian affiliate, the Nusra Front".
			for j := m.te + 1; j < len(d.toks) && j < m.te+7 && d.sent[j] == d.sent[k]; j++ {
				if m2 := d.mentionAtToken(j); m2 != nil && m2.typ == ArmedGroup && m2.ts == j {
					return m2
				}
			}
			return m
		case m.typ == ArmedGroup:
			return m
		case m.typ == Place && poss:
			k = m.te + 1 // "Ukraine's Azov Regiment"
		case m.typ == Place && m.te < len(d.toks) && (d.toks[m.te].lower == "backed" || d.toks[m.te].lower == "led"):
			k = m.te + 1 // "US-backed"
		default:
			return nil
		}
	}
	return nil
}

// affiliateGap reports "'s Syrian affiliate, the " between a parent group
// and its branch.
func affiliateGap(gap string) bool {
	if !strings.HasPrefix(gap, "'s ") && !strings.HasPrefix(gap, "’s ") {
		return false
	}
	words := gapWords(gap[strings.IndexByte(gap, ' ')+1:])
	n := len(words)
	return n >= 3 && n <= 6 && words[n-1] == "the" && words[n-2] == "," && partNouns[words[n-3]]
}

// partOfGap reports the words between two groups that make the first part
// of the second: ", part of the ", ", a faction of the Turkish-backed ",
// ", which operates under the ", " is the all-female wing of the ".
func partOfGap(gap string) bool {
	words := gapWords(gap)
	if len(words) == 0 || len(words) > 9 || words[len(words)-1] == "ent" {
		return false
	}
	// Drop the article and modifiers before the second group.
	k := len(words) - 1
	for k >= 0 && (words[k] == "the" || fillerWord(words[k])) {
		k--
	}
	if k < 1 {
		return false
	}
	switch {
	case words[k] == "of" && partNouns[words[k-1]]:
		return true
	case words[k] == "under" && (words[k-1] == "operates" || words[k-1] == "operating" || words[k-1] == "fights" || words[k-1] == "fighting"):
		return true
	case words[k] == "joined" || words[k] == "within":
		return true
	}
	return false
}

// leaderNouns name a person's place in an armed group: "Hamas leader X",
// "X, commander of the Y".
var leaderNouns = set("leader", "leaders", "commander", "chief", "head", "founder", "boss", "spokesman",
	"spokeswoman", "spokesperson", "member", "kingpin", "emir")

// leadersOf links a depicted person to the armed group the caption makes
// them a leader or member of, as the guide asks of a depicted leader:
// "<group> leader <person>", "<person>, [the] leader of [the] <group>",
// "<person>, the <group> commander".
func (d *doc) leadersOf(r *relSet, depicted []*mention) {
	for _, p := range depicted {
		if g := d.leaderGroup(p); g != nil {
			r.add(d.arg(p), MemberOf, d.arg(g), 0.7)
		}
	}
}

// leaderGroup returns the group person p leads or belongs to by one of
// leadersOf's shapes, or nil.
func (d *doc) leaderGroup(p *mention) *mention {
	// "<group> leader <person>".
	if k := p.ts - 1; k >= 1 && leaderNouns[d.toks[k].lower] && d.text[d.toks[k].end:p.start] == " " {
		if g := d.mentionAtToken(k - 1); g != nil && g.typ == ArmedGroup && g.te == k && d.text[g.end:d.toks[k].start] == " " {
			return g
		}
	}
	// "<person>, [a|the] leader of [the] <group>", "<person>, the <group> commander".
	k := p.te
	if k >= len(d.toks) || !strings.HasPrefix(d.text[p.end:], ", ") {
		return nil
	}
	// Past an alias: "Johnson Andre, also known as Izo, leader of ...".
	if m := d.aliasAfter(p); m != nil && m.te+1 < len(d.toks) && strings.HasPrefix(d.text[m.end:], ", ") {
		k = m.te
	}
	for k < len(d.toks) && (d.toks[k].lower == "the" || d.toks[k].lower == "a" || d.toks[k].lower == "an" || appositiveAdjectives[d.toks[k].lower]) {
		k++
	}
	if k >= len(d.toks) {
		return nil
	}
	if g := d.mentionAtToken(k); g != nil && g.typ == ArmedGroup && g.ts == k {
		if g.te < len(d.toks) && leaderNouns[d.toks[g.te].lower] && d.text[g.end:d.toks[g.te].start] == " " {
			return g
		}
		return nil
	}
	if leaderNouns[d.toks[k].lower] && k+1 < len(d.toks) && d.toks[k+1].lower == "of" {
		k += 2
		if k < len(d.toks) && d.toks[k].lower == "the" {
			k++
		}
		return d.groupFrom(k)
	}
	return nil
}

// aliasAfter returns the name that ", also known as" or the like gives
// person p right after it, or nil.
func (d *doc) aliasAfter(p *mention) *mention {
	if n := knownAs(d.text[p.end:]); n > 0 {
		if m := d.mentionAtToken(d.tokenAt(p.end + n)); m != nil && m.typ == Person {
			return m
		}
	}
	return nil
}
