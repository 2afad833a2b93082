package extract

import (
	"fmt"
	"strings"
)

// A dateMatch is one calendar date found in a caption, in byte offsets.
type dateMatch struct {
	start, end int
	value      string // ISO 8601, "--MM-DD" or "--MM" without a year
	precision  string // "day" or "month"
	hasYear    bool
}

var monthNames = map[string]int{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
	"december": 12, "dec": 12,
}

var fullMonth = map[string]bool{
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
	"july": true, "august": true, "september": true, "october": true, "november": true, "december": true,
}

var weekdayNames = map[string]bool{
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true,
}

// Words before a bare month name that show it is used as a date
// ("since October", "in June"), not as a verb or a name.
var bareMonthCue = map[string]bool{
	"in": true, "since": true, "until": true, "till": true, "by": true, "during": true,
	"early": true, "late": true, "mid": true, "last": true, "next": true, "this": true, "from": true,
}

// daysIn is the longest each month can be; inCalendar checks a day against
// its year too.
var daysIn = [13]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// inCalendar reports whether day is a day of month mon in year y: February
// 29 only in a leap year. An impossible date ("February 29, 2015") is a
// slip in the caption, not a day any date query could find.
func inCalendar(y, mon, day int) bool {
	return mon != 2 || day < 29 || y%4 == 0 && (y%100 != 0 || y%400 == 0)
}

// findDates scans toks (the caption's word tokens) for calendar dates. It
// knows the shapes wire captions use: "September 11, 2014", "Sept. 14, 2012",
// "Wednesday Jan. 3, 2018", "Friday, April 21, 2023", "October, 15, 2012",
// "26 November 2014", "January 2014", "May 19" and, after a cue word, a bare
// month ("since October").
func findDates(text string, toks []token) []dateMatch {
	var out []dateMatch
	for i := 0; i < len(toks); i++ {
		m, next, ok := dateAt(text, toks, i)
		if ok {
			out = append(out, m)
			i = next - 1
		}
	}
	return out
}

// dateAt tries to read a date whose first token is toks[i]. It returns the
// match and the index of the first token after it.
func dateAt(text string, toks []token, i int) (dateMatch, int, bool) {
	start := toks[i].start
	j := i
	// An attached weekday: "Friday, April 21, 2023", "Wednesday Jan. 3, 2018".
	if weekdayNames[toks[j].lower] && isUpperStart(toks[j].text) && j+1 < len(toks) {
		if gap := text[toks[j].end:toks[j+1].start]; gap == " " || gap == ", " {
			if _, ok := monthNames[toks[j+1].lower]; ok {
				j++
			}
		}
	}
	t := toks[j]
	if mon, ok := monthNames[t.lower]; ok && isUpperStart(t.text) {
		end := t.end
		abbrev := !fullMonth[t.lower]
		needYear := false
		if abbrev {
			// "Sept. 14": an abbreviation counts with its period; "Mar" or
			// "Dec" alone are too often something else, so with a comma
			// instead only a whole date will do ("Aug, 22, 2022").
			switch {
			case end < len(text) && text[end] == '.':
				end++
			case end < len(text) && (text[end] == ',' || text[end] == ' '):
				needYear = true // "Aug, 22, 2022", "Jun 25 2024"
			default:
				return dateMatch{}, 0, false
			}
		}
		k := j + 1
		// Month Day[,] [Year]; "October, 15, 2012" has a comma after the month.
		if k < len(toks) && isDay(toks[k].text) && gapOK(text, end, toks[k].start, true) {
			day := dayNumber(toks[k].text)
			if day >= 1 && day <= daysIn[mon] {
				dend := toks[k].end
				next := k + 1
				if k+1 < len(toks) && isYear(toks[k+1].text) && gapOK(text, dend, toks[k+1].start, true) {
					y := atoi(toks[k+1].text)
					if !inCalendar(y, mon, day) {
						return dateMatch{}, 0, false
					}
					return dateMatch{start, toks[k+1].end, fmt.Sprintf("%04d-%02d-%02d", y, mon, day), "day", true}, k + 2, true
				}
				if needYear {
					return dateMatch{}, 0, false
				}
				return dateMatch{start, dend, fmt.Sprintf("--%02d-%02d", mon, day), "day", false}, next, true
			}
		}
		if needYear {
			return dateMatch{}, 0, false
		}
		// Month Year.
		if k < len(toks) && isYear(toks[k].text) && gapOK(text, end, toks[k].start, true) {
			y := atoi(toks[k].text)
			return dateMatch{start, toks[k].end, fmt.Sprintf("%04d-%02d", y, mon), "month", true}, k + 1, true
		}
		// A bare month after a cue word.
		if j == i && !abbrev && i > 0 && bareMonthCue[toks[i-1].lower] && text[toks[i-1].end:start] == " " {
			return dateMatch{start, t.end, fmt.Sprintf("--%02d", mon), "month", false}, j + 1, true
		}
		return dateMatch{}, 0, false
	}
	// Year-Month-Day: "2024-06-25".
	if j == i && isYear(t.text) && j+2 < len(toks) && len(toks[j+1].text) == 2 && isDigits(toks[j+1].text) && len(toks[j+2].text) == 2 &&
		isDigits(toks[j+2].text) && text[t.end:toks[j+1].start] == "-" && text[toks[j+1].end:toks[j+2].start] == "-" {
		y, mon, day := atoi(t.text), atoi(toks[j+1].text), atoi(toks[j+2].text)
		if mon >= 1 && mon <= 12 && day >= 1 && day <= daysIn[mon] && inCalendar(y, mon, day) &&
			(j+3 >= len(toks) || text[toks[j+2].end:toks[j+3].start] != "-") {
			return dateMatch{start, toks[j+2].end, fmt.Sprintf("%04d-%02d-%02d", y, mon, day), "day", true}, j + 3, true
		}
		return dateMatch{}, 0, false
	}
	// Day Month [Year]: "26 November 2014", "04 August", "25th of June 2024".
	if j != i || !isDay(t.text) {
		return dateMatch{}, 0, false
	}
	if !isDigits(t.text) && j+2 < len(toks) && toks[j+1].lower == "of" &&
		text[t.end:toks[j+1].start] == " " && text[toks[j+1].end:toks[j+2].start] == " " {
		j++ // "25th of June": the month follows "of"
	}
	if j+1 < len(toks) && text[toks[j].end:toks[j+1].start] == " " {
		mt := toks[j+1]
		mon, ok := monthNames[mt.lower]
		if !ok || !isUpperStart(mt.text) || len(mt.lower) < 3 {
			return dateMatch{}, 0, false
		}
		day := dayNumber(t.text)
		if day < 1 || day > daysIn[mon] {
			return dateMatch{}, 0, false
		}
		end := mt.end
		if len(mt.lower) <= 4 && end < len(text) && text[end] == '.' {
			end++
		}
		if j+2 < len(toks) && isYear(toks[j+2].text) && gapOK(text, end, toks[j+2].start, true) {
			y := atoi(toks[j+2].text)
			if !inCalendar(y, mon, day) {
				return dateMatch{}, 0, false
			}
			return dateMatch{start, toks[j+2].end, fmt.Sprintf("%04d-%02d-%02d", y, mon, day), "day", true}, j + 3, true
		}
		return dateMatch{start, mt.end, fmt.Sprintf("--%02d-%02d", mon, day), "day", false}, j + 2, true
	}
	return dateMatch{}, 0, false
}

// gapOK reports whether the text between two date parts is a single space,
// optionally after a comma.
func gapOK(text string, from, to int, comma bool) bool {
	if from > to {
		return false
	}
	g := text[from:to]
	return g == " " || (comma && (g == ", " || g == ","))
}

// isDay reports a day of the month as captions write it: "5", "25",
// "25th", "1st", "22nd", "3rd".
func isDay(s string) bool {
	if n := len(s); n > 2 && !isDigits(s[n-2:]) {
		// Every token passes here: compare the suffix without allocating.
		switch string([]byte{s[n-2] | 0x20, s[n-1] | 0x20}) {
		case "st", "nd", "rd", "th":
			s = s[:n-2]
		}
	}
	return (len(s) == 1 || len(s) == 2) && isDigits(s)
}

// dayNumber is the number of a day that isDay accepts.
func dayNumber(s string) int {
	if len(s) > 2 && !isDigits(s[len(s)-2:]) {
		s = s[:len(s)-2]
	}
	return atoi(s)
}

func isYear(s string) bool {
	if len(s) != 4 || !isDigits(s) {
		return false
	}
	y := atoi(s)
	return y >= 1800 && y <= 2100
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// releaseCue reports whether the words just before a date say it is when
// the picture was released or uploaded rather than taken: "released by SANA
// on", "uploaded". Words are whole: "government-provided" is no cue.
func releaseCue(before string) bool {
	words := strings.Fields(strings.ToLower(before))
	if len(words) > 10 {
		words = words[len(words)-10:]
	}
	for _, w := range words {
		switch strings.Trim(w, ",.;:()") {
		case "released", "uploaded", "provided", "posted", "published", "distributed", "obtained", "issued":
			return true
		}
	}
	return false
}
