package main

import (
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
