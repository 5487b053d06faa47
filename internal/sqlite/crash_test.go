package sqlite_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// crashChildEnv names the data directory of a writer child process.
const crashChildEnv = "VIGIL_SQLITE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(closeChildEnv); dir != "" {
		closeChild(dir)
		os.Exit(0)
	}
	if dir := os.Getenv(crashChildEnv); dir != "" {
		if err := crashChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashBody is the i-th body the child writes to resource r: a page of
// ~20 KB with a few lines that change with i, so that versions are
// re-encoded as patches, with a full copy every k.
func crashBody(r, i int) []byte {
	rng := rand.New(rand.NewPCG(uint64(r), 99))
	var b bytes.Buffer
	fmt.Fprintf(&b, "<html><body><h1>resource %d</h1>\n", r)
	for line := range 400 {
		if rng.IntN(40) == 0 {
			fmt.Fprintf(&b, "<p>line %d changes: version %d</p>\n", line, i/(1+line%3))
			continue
		}
		fmt.Fprintf(&b, "<p>line %d stays the same %d</p>\n", line, rng.IntN(1000))
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// crashChild writes versions to three resources until it is killed,
// printing "ack <resource> <i> <version id>" after each Put returns.
func crashChild(dir string) error {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		return err
	}
	codec, err := zstd.New(0)
	if err != nil {
		return err
	}
	w, err := warehouse.New(db, warehouse.Options{Codec: codec, FullEvery: 4, Retention: warehouse.Retention{MaxVersions: 50}})
	if err != nil {
		return err
	}
	start, _ := strconv.Atoi(os.Getenv(crashChildEnv + "_START"))
	for i := start; ; i++ {
		r := i % 3
		v, err := w.Put(ctx, &warehouse.Fetch{URL: fmt.Sprintf("http://crash%d.example/", r), FetchedAt: time.Unix(int64(i), 0),
			Status: 200, ContentType: "text/html", Body: crashBody(r, i)})
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stdout, "ack %d %d %d\n", r, i, v.ID) // unbuffered: one write per ack
	}
}

// TestCrashSafety kills a writer process with SIGKILL in the middle of a
// stream of writes, several times, and checks after each kill that every
// version acknowledged before it reads back exactly and that the database
// passes PRAGMA integrity_check.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	ctx := context.Background()
	type ack struct{ r, i int }
	acked := map[int64]ack{} // version id -> what was written
	next := 0
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, crashChildEnv+"_START="+strconv.Itoa(next))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		// Kill after a random number of acknowledgements, at a random
		// moment in the next write.
		killAfter := 60 + rng.IntN(120)
		n := 0
		killed := false
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 4 || f[0] != "ack" {
				t.Fatalf("child said %q", sc.Text())
			}
			r, _ := strconv.Atoi(f[1])
			i, _ := strconv.Atoi(f[2])
			id, _ := strconv.ParseInt(f[3], 10, 64)
			acked[id] = ack{r, i}
			next = i + 1
			n++
			if n == killAfter && !killed {
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
		}
		err = cmd.Wait()
		if !killed {
			t.Fatalf("round %d: child ended before the kill: %v\n%s", round, err, stderr.String())
		}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child did not die of SIGKILL: %v\n%s", round, err, stderr.String())
		}
		// Reopen and check.
		db, err := sqlite.Open(ctx, dir)
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		if s, err := db.IntegrityCheck(ctx); err != nil || s != "ok" {
			t.Fatalf("round %d: integrity_check: %q %v", round, s, err)
		}
		codec, _ := zstd.New(0)
		w, _ := warehouse.New(db, warehouse.Options{Codec: codec, FullEvery: 4})
		checked := 0
		for id, a := range acked {
			v, err := db.FindVersionByID(ctx, id)
			if err != nil {
				// Retention (50 versions per resource) may have dropped
				// old ones; it must never drop one of the newest 50.
				if a.i >= next-3*50+3 {
					t.Fatalf("round %d: acknowledged version %d (write %d) lost: %v", round, id, a.i, err)
				}
				delete(acked, id)
				continue
			}
			body, err := w.Body(ctx, id)
			if err != nil || !bytes.Equal(body, crashBody(a.r, a.i)) || warehouse.Hash(body) != v.ContentHash {
				t.Fatalf("round %d: version %d (write %d) does not read back: %v", round, id, a.i, err)
			}
			checked++
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: killed after %d acks; %d acknowledged versions read back exactly; integrity ok", round, n, checked)
		// The writer may have committed one more version than it
		// acknowledged; the next round's writes go on from there.
	}
}
