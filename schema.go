package vigil

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
