package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsNameTheCommandOnce: the runner begins every error of a
// command with "vigil NAME: ", so the error itself does not name the
// command again: keys rotate said "vigil keys rotate: keys rotate: another
// vigil serve ...", import warc "vigil import warc: import warc: ...",
// bench diff "vigil bench diff: bench diff: ...", and compose, whose
// library says compose too, "vigil compose: delta 2: compose: deltas
// cannot be composed: ...". Each case runs one of those error paths.
func TestErrorsNameTheCommandOnce(t *testing.T) {
	data := t.TempDir()
	served := t.TempDir() // a data directory vigil serve holds
	release, held, err := takeLockFile(filepath.Join(served, serveLockFile))
	if err != nil || held {
		t.Fatalf("serve lock: held %v, %v", held, err)
	}
	defer release()
	imported := t.TempDir() // one an import warc in one transaction holds
	releaseImport, held, err := takeLockFile(filepath.Join(imported, importLockFile))
	if err != nil || held {
		t.Fatalf("import lock: held %v, %v", held, err)
	}
	defer releaseImport()
	// A data directory where the new key cannot be written: a directory
	// stands where its file goes.
	blocked := t.TempDir()
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", blocked, writeSentinel(t, "news")); code != exitOK {
		t.Fatalf("making a store: exit %d\n%s%s", code, out, errOut)
	}
	if err := os.Remove(filepath.Join(blocked, secretFile)); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(blocked, secretFile), 0o700); err != nil {
		t.Fatal(err)
	}
	warcFile := writeFile(t, t.TempDir(), "in.warc", "")
	// Two deltas without fingerprints whose chain does not hold: the
	// second one's old value is not the value the first leaves.
	const unfit = `<unit_delta>
<t fromXidMap="(1-6|7)" toXidMap="(1-6|7)">
<d par="3" pos="1" xm="(2)" update="yes">x</d>
<i par="3" pos="1" xm="(2)" update="yes">y</i>
</t>
</unit_delta>
`
	deltas := t.TempDir()
	d1, d2 := writeFile(t, deltas, "d1.xyd", unfit), writeFile(t, deltas, "d2.xyd", unfit)

	cases := []struct {
		name string
		args []string
		want string // what the error says, to know that the path ran
	}{
		{"keys rotate", []string{"keys", "rotate", "--data", data, "cookies"}, "want feed or webhook"},
		{"keys rotate", []string{"keys", "rotate", "--data", served, "feed"}, "is running on the data directory"},
		{"keys rotate", []string{"keys", "rotate", "--data", blocked, "feed"}, secretFile},
		{"import warc", []string{"import", "warc", "--data", served, warcFile}, "is running on the data directory"},
		{"import warc", []string{"import", "warc", "--data", imported, "--keep-partial", warcFile}, "is importing into the data directory"},
		{"bench diff", []string{"bench", "diff", "--size", "20000", "--runs", "1"}, "need the vigil binary"},
		{"compose", []string{"compose", d1, d2}, "delta 2: deltas cannot be composed"},
	}
	if dsn := os.Getenv("VIGIL_TEST_POSTGRES_DSN"); dsn != "" {
		// On PostgreSQL the key is copied to the data directory: a
		// directory stands where its file goes.
		dsn = postgresDSN(t)
		copyTo := t.TempDir()
		if err := os.Mkdir(filepath.Join(copyTo, webhookSecretFile), 0o700); err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := runVigil(t, "", "sentinel", "add", "--postgres", dsn, "--data", t.TempDir(), writeSentinel(t, "news")); code != exitOK {
			t.Fatalf("making a store: exit %d\n%s%s", code, out, errOut)
		}
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"keys rotate", []string{"keys", "rotate", "--postgres", dsn, "--data", copyTo, "webhook"}, "the store's key is new, but its copy in"})
	}
	for _, c := range cases {
		code, _, errOut := runVigil(t, "", c.args...)
		if code != exitError || !strings.Contains(errOut, c.want) {
			t.Errorf("vigil %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, errOut, c.want)
			continue
		}
		if n := strings.Count(errOut, c.name+": "); n != 1 {
			t.Errorf("vigil %s names %q %d times: %q", strings.Join(c.args, " "), c.name, n, errOut)
		}
	}
}
