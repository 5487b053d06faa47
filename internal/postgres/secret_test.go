package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/internal/postgres"
)

// TestSecretsTwoProcesses: two stores opened on one database, as two
// daemons starting at once on it, each store their own new key under
// names neither has yet, at the same moment: for every name both get
// back the same key, stored by exactly one of them.
func TestSecretsTwoProcesses(t *testing.T) {
	ctx := context.Background()
	a, d := openDSN(t)
	b, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := range 20 {
		name := fmt.Sprintf("key-%d", i)
		var (
			got    [2][]byte
			stored [2]bool
			errs   [2]error
			wg     sync.WaitGroup
		)
		start := make(chan struct{})
		for j, db := range []*postgres.DB{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				got[j], stored[j], errs[j] = db.EnsureSecret(ctx, name, fmt.Appendf(nil, "process %d's key for %s", j, name))
			}()
		}
		close(start)
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("%s: %v, %v", name, errs[0], errs[1])
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Fatalf("%s: the processes disagree: %q and %q", name, got[0], got[1])
		}
		if stored[0] == stored[1] {
			t.Fatalf("%s: stored by the first %v, by the second %v; want exactly one", name, stored[0], stored[1])
		}
	}
}
