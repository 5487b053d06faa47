package vigil

import (
	"fmt"
	"strings"
)

// SchemaReport says what opening a store did to its schema, so that a
// daemon can tell its operator: several daemons upgraded one after the
// other on one PostgreSQL store show which of them migrated it, and one
// started with an older Vigil than the store's learns that it is behind.
type SchemaReport struct {
	// Applied holds the migrations this process applied as it opened the
	// store, in the order applied; empty when the store was up to date.
	Applied []string
	// Unknown holds the migrations the store records that this build does
	// not have, in name order: a newer Vigil migrated the store, and this
	// one writes what that one may not fully read.
	Unknown []string
}

// SchemaReporter is a store that migrates its schema as it opens and
// reports what it did (internal/sqlite and internal/postgres).
type SchemaReporter interface {
	// Schema returns what opening the store did to its schema.
	Schema() SchemaReport
}

// NotMigrated returns the ECONFLICT error of a store opened only to be
// read (sqlite.OpenCurrent, postgres.OpenCurrent) that lacks the
// migrations missing, given in name order: an older vigil left it, and a
// command that only reads the store does not migrate it. It returns nil
// for none missing.
func NotMigrated(missing []string) error {
	var applied string
	switch len(missing) {
	case 0:
		return nil
	case 1:
		applied = "1 migration, " + missing[0] + ", is"
	default:
		applied = fmt.Sprintf("%d migrations, %s, are", len(missing), strings.Join(missing, ", "))
	}
	return Errorf(ECONFLICT, "the store is older than this vigil: %s not applied, and a command that only reads the store does not migrate it (vigil serve, or a command that writes the store, such as vigil sentinel add, migrates it)", applied)
}
