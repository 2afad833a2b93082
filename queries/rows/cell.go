package rows

import (
	"encoding/json"
	"math"
	"strconv"
)

// Cell is the text of a row's value in a table or a CSV cell, the same in
// the CLI and the HTTP API: "" for no value, an IRI without its angle
// brackets, a typed literal's lexical form, a whole number without a
// fraction or an exponent, and anything else (a list, an object) as JSON.
func Cell(v any) string {
	switch v := plainValue(v).(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
