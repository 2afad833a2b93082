package photoindex

import (
	"fmt"
	"strconv"
	"time"
)

// A Precision is how much of a date a caption gives.
type Precision uint8

const (
	Undated Precision = iota // no date, or a day and month without a year
	Year
	Month
	Day
)

// A Date is a photo's date as an interval of days: one day, a month or a
// year.
type Date struct {
	Lexical     string // as the store holds it: 2016-03-05, 2016-03, 2016, --03-05
	Precision   Precision
	First, Last int32 // days since 1970-01-01, inclusive; meaningless when Undated
}

// ParseDate reads the lexical form of an xsd:date, gYearMonth, gYear or
// gMonthDay. What it cannot read is Undated.
func ParseDate(s string) Date {
	d := Date{Lexical: s}
	var y, m, day int
	var err error
	switch len(s) {
	case 10:
		var t time.Time
		t, err = time.Parse(time.DateOnly, s)
		y, m, day = t.Year(), int(t.Month()), t.Day()
		d.Precision = Day
	case 7:
		var t time.Time
		t, err = time.Parse("2006-01", s)
		y, m = t.Year(), int(t.Month())
		d.Precision = Month
	case 4:
		y, err = strconv.Atoi(s)
		d.Precision = Year
	default:
		return Date{Lexical: s}
	}
	if err != nil || y < 1 {
		return Date{Lexical: s}
	}
	switch d.Precision {
	case Day:
		d.First = days(y, m, day)
		d.Last = d.First
	case Month:
		d.First = days(y, m, 1)
		d.Last = days(y, m+1, 1) - 1
	case Year:
		d.First = days(y, 1, 1)
		d.Last = days(y+1, 1, 1) - 1
	}
	return d
}

func days(y, m, d int) int32 {
	return int32(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// compare orders dates by their first day, then their last; undated
// dates come last.
func (d Date) compare(e Date) int {
	switch {
	case d.Precision == Undated && e.Precision == Undated:
		return 0
	case d.Precision == Undated:
		return 1
	case e.Precision == Undated:
		return -1
	case d.First != e.First:
		return int(d.First - e.First)
	}
	return int(d.Last - e.Last)
}

// month is the number of the date's month (year*12 + month - 1), for a
// date of month or day precision.
func (d Date) month() (int, bool) {
	if d.Precision < Month {
		return 0, false
	}
	t := time.Unix(int64(d.First)*86400, 0).UTC()
	return t.Year()*12 + int(t.Month()) - 1, true
}

// monthString writes a month number as YYYY-MM.
func monthString(n int) string { return fmt.Sprintf("%04d-%02d", n/12, n%12+1) }

// A Range is an inclusive range of days that a filter keeps photos in: a
// photo is in it when its whole date is.
type Range struct {
	From, To string // YYYY, YYYY-MM or YYYY-MM-DD; "" for an open end
}

// Check returns an error naming the bound that is not a date, if any.
func (r Range) Check() error {
	_, _, err := r.days()
	return err
}

// days returns the range as days, or an error naming the bound that is
// not a date.
func (r Range) days() (first, last int32, err error) {
	first, last = -1<<31, 1<<31-1
	if r.From != "" {
		d := ParseDate(r.From)
		if d.Precision == Undated {
			return 0, 0, fmt.Errorf("from: %q is not a date (want YYYY, YYYY-MM or YYYY-MM-DD)", r.From)
		}
		first = d.First
	}
	if r.To != "" {
		d := ParseDate(r.To)
		if d.Precision == Undated {
			return 0, 0, fmt.Errorf("to: %q is not a date (want YYYY, YYYY-MM or YYYY-MM-DD)", r.To)
		}
		last = d.Last
	}
	return first, last, nil
}
