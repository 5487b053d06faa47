package vigil_test

import (
	"testing"

	"github.com/vigil-web/vigil"
)

// TestNotMigrated: the error of a store opened only to be read that
// lacks migrations says how many and which, one or several; none is no
// error.
func TestNotMigrated(t *testing.T) {
	const tail = " not applied, and a command that only reads the store does not migrate it (vigil serve, or a command that writes the store, such as vigil sentinel add, migrates it)"
	cases := []struct {
		name    string
		missing []string
		want    string // the message; empty for no error
	}{
		{"none", nil, ""},
		{"one", []string{"0115_a.sql"}, "the store is older than this vigil: 1 migration, 0115_a.sql, is" + tail},
		{"two", []string{"0114_a.sql", "0115_b.sql"}, "the store is older than this vigil: 2 migrations, 0114_a.sql, 0115_b.sql, are" + tail},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := vigil.NotMigrated(tc.missing)
			if tc.want == "" {
				if err != nil {
					t.Errorf("NotMigrated(%q) = %v; want nil", tc.missing, err)
				}
				return
			}
			if vigil.ErrorCode(err) != vigil.ECONFLICT || vigil.ErrorMessage(err) != tc.want {
				t.Errorf("NotMigrated(%q) = %v; want ECONFLICT %q", tc.missing, err, tc.want)
			}
		})
	}
}
