package postgres

import (
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/vigil-web/vigil"
)

// readingValue is the value of a change's reading column: its
// ChangeReading as JSON, or NULL for none (versions read alike, and the
// changes stored before readings were kept).
func readingValue(r *vigil.ChangeReading) (any, error) {
	if r == nil {
		return nil, nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("change reading: %w", err)
	}
	return string(b), nil
}

// scanReading reads a change's reading column into c.Reading.
func scanReading(c *vigil.Change, v sql.NullString) error {
	if !v.Valid || v.String == "" {
		return nil
	}
	r := &vigil.ChangeReading{}
	if err := json.Unmarshal([]byte(v.String), r); err != nil {
		return fmt.Errorf("change %d: reading: %w", c.ID, err)
	}
	c.Reading = r
	return nil
}
