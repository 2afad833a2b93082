package graph

import (
	"errors"
	"strings"
	"testing"
)

// TestQuerySQL runs SQL on a PostgreSQL store: terms bind as node hashes,
// values stay data, the transaction is read-only, and limit cuts the rows.
func TestQuerySQL(t *testing.T) {
	bolt := openTemp(t)
	for _, err := range bolt.QuerySQL(t.Context(), `SELECT 1`, nil, 0) {
		if !errors.Is(err, ErrNotSQL) {
			t.Errorf("on bbolt: %v, want ErrNotSQL", err)
		}
	}
	pg := openPostgres(t)
	loadAll(t, pg, exampleExtractions(t))
	rows := func(text string, args []any, limit int) ([]map[string]any, error) {
		var out []map[string]any
		for r, err := range pg.QuerySQL(t.Context(), text, args, limit) {
			if err != nil {
				return out, err
			}
			out = append(out, r.(map[string]any))
		}
		return out, nil
	}
	// The names of the nodes named "Idlib" or as the hostile string: the
	// string is a value to look up, and matches nothing.
	got, err := rows(`SELECT n.value_string AS name, count(*) AS links FROM quads q JOIN nodes n ON n.hash = q.object_hash
		WHERE q.predicate_hash = $1 AND q.object_hash = ANY($2) GROUP BY n.value_string ORDER BY name`,
		[]any{IRI("https://schema.org/name"), []Term{Literal("Idlib"), Literal(`x'); DROP TABLE quads; --`)}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0]["name"] != "Idlib" || got[0]["links"].(int64) < 1 {
		t.Errorf("names: %v", got)
	}
	if got, err := rows(`SELECT hash FROM nodes`, nil, 3); err != nil || len(got) != 3 {
		t.Errorf("limit 3: %d rows, %v", len(got), err)
	}
	if _, err := rows(`DELETE FROM quads`, nil, 0); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("a write: %v, want a read-only transaction's error", err)
	}
	if s, err := pg.Stats(t.Context()); err != nil || s.Quads == 0 {
		t.Errorf("after the refused write: %+v, %v", s, err)
	}
}
