package config

import (
	"reflect"
	"testing"
)

// TestEverySettingHasADefault: a field added to Config without an entry in
// settings would be read from no environment variable and no flag.
func TestEverySettingHasADefault(t *testing.T) {
	got := Default().settings()
	typ := reflect.TypeFor[Config]()
	n := 0
	for field := range typ.Fields() {
		tag := field.Tag.Get("mapstructure")
		if tag == "-" {
			continue
		}
		n++
		if _, ok := got[tag]; !ok {
			t.Errorf("setting %s (field %s) is missing from settings()", tag, field.Name)
		}
	}
	if n != len(got) {
		t.Errorf("settings() has %d entries for %d fields", len(got), n)
	}
}
