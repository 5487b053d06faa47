package main

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/vigil-web/vigil"
)

// logSchema says what opening st did to its schema: the migrations this
// daemon applied (so that, of several daemons upgraded on one PostgreSQL
// store, the log of the one that migrated it says so), and, as a warning,
// those the store records that this build does not have: a newer Vigil
// migrated the store, and this one writes changes that the newer ones do
// not fully index until it is upgraded too.
func logSchema(logger *slog.Logger, st vigil.Store) {
	r, ok := st.(vigil.SchemaReporter)
	if !ok {
		return
	}
	report := r.Schema()
	if len(report.Applied) > 0 {
		logger.Info("store migrated", "applied", len(report.Applied), "migrations", migrationsShown(report.Applied))
	}
	if len(report.Unknown) > 0 {
		logger.Warn("the store was migrated by a newer Vigil than this one: upgrade this daemon, whose writes the newer ones do not fully read",
			"unknown_migrations", migrationsShown(report.Unknown))
	}
}

// migrationsShown names the migrations of names, the first and last of a
// long list (the 100 and more of a new store's first start).
func migrationsShown(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s … %s", names[0], names[len(names)-1])
}
