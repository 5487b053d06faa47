package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestLockFileLooksDoNotCollide: looks at a lock no process holds, many at
// once, never take each other for its holder (each took the exclusive
// lock to look, and the one that lost said the store was held, naming a
// pid long gone), and a lock taken meanwhile is taken, not refused.
func TestLockFileLooksDoNotCollide(t *testing.T) {
	path := filepath.Join(t.TempDir(), "import.lock")
	release, held, err := takeLockFile(path)
	if err != nil || held {
		t.Fatalf("take: held %v, %v", held, err)
	}
	release()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				lockFileHeld(path)
			}
		}()
	}
	refused := 0
	for range 200 {
		release, held, err := takeLockFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if held {
			refused++
			continue
		}
		release()
	}
	close(stop)
	wg.Wait()
	if refused > 0 {
		t.Errorf("%d of 200 takes refused beside looks at the lock", refused)
	}
}

// TestLockFileLooksAtOnce: looks alone, many at once, at a lock no one
// holds, never see it held.
func TestLockFileLooksAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "import.lock")
	release, _, err := takeLockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	release()
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				if lockFileHeld(path) {
					mu.Lock()
					seen++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if seen > 0 {
		t.Errorf("%d looks of 16000 saw a lock no one holds as held", seen)
	}
}

// TestLockFileRemovedWhileLocking: a lock file removed between its open
// and its lock (its holder, a serve that failed to start, removed it and
// ended) is opened again, so that the lock taken is the one at the path,
// where the lock was taken on the removed file and a third process could
// lock a new file at the path: two daemons on one store.
func TestLockFileRemovedWhileLocking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "serve.lock")
	removed := 0
	lockFileOpened = func() {
		if removed == 0 {
			removed++
			if err := os.Remove(path); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { lockFileOpened = nil }()
	release, held, err := takeLockFile(path)
	if err != nil || held {
		t.Fatalf("takeLockFile: held %v, err %v", held, err)
	}
	defer release()
	if removed != 1 {
		t.Fatalf("the hook removed the file %d times", removed)
	}
	lockFileOpened = nil
	if !lockFileHeld(path) {
		t.Error("the file at the path is not locked: another process could take it")
	}
	if _, held, _ := takeLockFile(path); !held {
		t.Error("a second takeLockFile was not told the lock is held")
	}
}
