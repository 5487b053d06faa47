package postgres

import (
	"database/sql"

	"github.com/vigil-web/vigil"
)

// importance scans the importance of a sentinel or resource, read as 0
// when it is not one (vigil.ValidImportance), as the claims order it: RecordChecks
// refuses such a value, but one written past it (by hand, by an older
// bug) would otherwise be handed out, and a NaN or an infinity fail the
// JSON of its sentinel or resource, and of every list holding it.
type importance struct{ p *float64 }

// Scan implements sql.Scanner.
func (v importance) Scan(src any) error {
	var f sql.NullFloat64
	if err := f.Scan(src); err != nil {
		return err
	}
	*v.p = 0
	if vigil.ValidImportance(f.Float64) {
		*v.p = f.Float64
	}
	return nil
}
