package sqlite

import (
	"errors"
	"strings"
	"testing"
)

// TestNotWritableCountsMigrations: the error of a store lacking
// migrations this user may not apply counts them in the singular for
// one: it said "the store lacks 1 migrations".
func TestNotWritableCountsMigrations(t *testing.T) {
	done := map[string]bool{"0001_init.sql": true}
	denied := errors.New("attempt to write a readonly database")
	for _, tc := range []struct {
		missing []string
		want    string
	}{
		{[]string{"0002_a.sql"}, "the store lacks 1 migration of this build (0002_a.sql first)"},
		{[]string{"0002_a.sql", "0003_b.sql"}, "the store lacks 2 migrations of this build (0002_a.sql first)"},
	} {
		if got := notWritable(done, tc.missing, denied).Error(); !strings.Contains(got, tc.want) {
			t.Errorf("%d missing: %q, want it to say %q", len(tc.missing), got, tc.want)
		}
	}
}
