package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

func init() {
	register(&command{name: "backup", summary: "write a consistent copy of the SQLite store to a file, while vigil serve runs", run: runBackup})
}

// runBackup writes a copy of the SQLite store of --data to its one
// argument (sqlite.Backup), and says which key files of the data
// directory go with it. A PostgreSQL store is backed up with pg_dump.
// Beside an import warc in one transaction the copy is taken all the
// same, of the store as it was before the import (WAL's readers do not
// see a transaction not committed), and the command says so, of an
// import running when the copy began or once it ended
// (backupBesideImport).
func runBackup(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newSentinelFlagSet(env, "backup", "FILE", "Backup writes a copy of the SQLite store of the data directory to FILE, a\n"+
		"new file (not standard output), consistent as of one moment, while vigil\n"+
		"serve runs on it. Keep the data directory's key files (secret,\n"+
		"webhook-secret) with it: to restore, put the copy in a data directory as\n"+
		sqlite.FileName+", beside them. A PostgreSQL store (keys included) is backed\n"+
		"up with pg_dump.")
	sf := addStoreFlags(fs, env)
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError, errUsageShown
	}
	if *sf.postgres != "" {
		return exitError, errors.New("the store is in PostgreSQL (--postgres or $VIGIL_POSTGRES_DSN): back it up with pg_dump (pg_dump --format=custom DSN > vigil.dump, with the schema of its search_path, if any, in --schema), which copies its keys (table secrets) too")
	}
	dest := fs.Arg(0)
	if dest == "-" {
		// SQLite writes the copy into a file of its own (VACUUM INTO)
		// and it is synced there; standard output carries what the
		// command says of it.
		return exitError, errors.New("vigil backup writes a new file, not standard output (-): SQLite writes the copy into a file and syncs it there; give a file name, such as vigil-backup.db (./- for a file named -)")
	}
	if err := notADataDir(*sf.data); err != nil {
		return exitError, err
	}
	note, err := backupBesideImport(*sf.data, func() error { return sqlite.Backup(ctx, *sf.data, dest) })
	if err != nil {
		if vigil.ErrorCode(err) != vigil.EINTERNAL {
			err = errors.New(vigil.ErrorMessage(err))
		}
		return exitError, err
	}
	fmt.Fprintf(env.stdout, "%s: a copy of %s\n", dest, filepath.Join(*sf.data, sqlite.FileName))
	if note != "" {
		fmt.Fprintln(env.stdout, note)
	}
	var keys []string
	hasWebhookKey := false
	for _, k := range []struct{ name, signs string }{
		{secretFile, "feed links and sessions"},
		{webhookSecretFile, "webhook signatures"},
	} {
		if _, err := os.Stat(filepath.Join(*sf.data, k.name)); err == nil {
			keys = append(keys, fmt.Sprintf("%s (for %s)", filepath.Join(*sf.data, k.name), k.signs))
			hasWebhookKey = hasWebhookKey || k.name == webhookSecretFile
		}
	}
	if len(keys) > 0 {
		fmt.Fprintf(env.stdout, "keep the key %s %s with it\n", plural(len(keys), "file", "files"), strings.Join(keys, " and "))
	}
	if !hasWebhookKey {
		fmt.Fprintf(env.stdout, "the webhook key is in no file of %s: keep the --webhook-secret (VIGIL_WEBHOOK_SECRET) the daemon is given with it\n", *sf.data)
	}
	return exitOK, nil
}
