package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestSentinelAddConcurrentSameName: of sentinel adds of one name run at
// once, one adds it and the others say the name is used. Each checked
// the name against the owner's sentinels long before it stored its own,
// so that eight at once stored seven sentinels called c5.
func TestSentinelAddConcurrentSameName(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "c5.ssl", "Create Sentinel c5 Using https://example.org/c5\n")
	data := filepath.Join(dir, "data")
	// The store and the owner made first, as a user's are: the adds
	// race on the name, not on making the store.
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, writeFile(t, dir, "first.ssl", "Create Sentinel first Using https://example.org/\n")); code != exitOK {
		t.Fatalf("first add: exit %d\n%s%s", code, out, errOut)
	}
	const n = 8
	type result struct {
		code        int
		out, errOut string
	}
	results := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, file)
			results[i] = result{code, out, errOut}
		})
	}
	wg.Wait()
	added := 0
	for _, r := range results {
		switch {
		case r.code == exitOK && strings.HasPrefix(r.out, "added sentinel "):
			added++
		case r.code == exitChanged && strings.Contains(r.out, "sentinel name c5 is taken"):
		default:
			t.Errorf("an add: exit %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
		}
	}
	st, err := sqlite.Open(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, _, err := st.FindSentinels(context.Background(), vigil.SentinelFilter{})
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, s := range all {
		if s.Name == "c5" {
			named++
		}
	}
	if added != 1 || named != 1 {
		t.Fatalf("%d adds of c5 at once: %d said added, %d stored; want 1 and 1", n, added, named)
	}
}

// TestSentinelRmSameNames: a store holding several sentinels of one name
// for one owner (made before the store refused them) has sentinel rm and
// sentinel feed refuse the name, saying which ids it names, where rm
// removed the lowest id and said nothing of the others.
func TestSentinelRmSameNames(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, writeFile(t, dir, "c5.ssl", "Create Sentinel c5 Using https://example.org/c5\n")); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	db, err := sql.Open("sqlite", filepath.Join(data, "vigil.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The bad data of an older store: a copy of the sentinel, another id.
	_, err = db.Exec(`INSERT INTO sentinels (id, owner_id, name, source, spec, status, created_at, updated_at, next_check, last_check)
		SELECT id + 1, owner_id, name, source, spec, status, created_at, updated_at, next_check, last_check FROM sentinels WHERE name = 'c5'`)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"rm", "feed"} {
		code, out, errOut := runVigil(t, "", "sentinel", cmd, "--data", data, "C5")
		want := fmt.Sprintf("vigil sentinel %s: %s has 2 sentinels named C5 (ids 1, 2): name one by its id\n", cmd, defaultOwner)
		if code != exitChanged || out != "" || errOut != want {
			t.Errorf("sentinel %s of a name two sentinels have: exit %d, stdout %q, stderr %q; want 1 and %q", cmd, code, out, errOut, want)
		}
	}
	if code, out, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "2"); code != exitOK || out != "removed sentinel 2\n" {
		t.Errorf("rm by id: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "c5"); code != exitOK || out != "removed sentinel 1\n" {
		t.Errorf("rm of the one left: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
