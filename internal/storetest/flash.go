package storetest

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testFlashes checks that a flash is taken once: a second take, and a
// take after it expired, find none; an id is kept once; a put and a take
// delete the flashes expired; bad arguments are refused, naming what is wrong.
func testFlashes(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	value := []byte("sealed\x00\xff")
	must(t, s.PutFlash(ctx, "a", value, now.Add(vigil.MaxFlashTTL), now))
	wantCode(t, s.PutFlash(ctx, "a", []byte("other"), now.Add(time.Second), now), vigil.ECONFLICT)
	got, err := s.TakeFlash(ctx, "a", now.Add(30*time.Second))
	must(t, err)
	if !bytes.Equal(got, value) {
		t.Fatalf("TakeFlash: %q, want %q", got, value)
	}
	_, err = s.TakeFlash(ctx, "a", now.Add(30*time.Second))
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.TakeFlash(ctx, "never", now)
	wantCode(t, err, vigil.ENOTFOUND)

	// A flash without a value reads back empty; one taken at its expiry
	// is not found, and is gone.
	must(t, s.PutFlash(ctx, "empty", nil, now.Add(time.Second), now))
	got, err = s.TakeFlash(ctx, "empty", now)
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("TakeFlash of an empty flash: %q", got)
	}
	must(t, s.PutFlash(ctx, "late", []byte("x"), now.Add(time.Second), now))
	_, err = s.TakeFlash(ctx, "late", now.Add(time.Second))
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.TakeFlash(ctx, "late", now)
	wantCode(t, err, vigil.ENOTFOUND)

	// A put deletes the expired: the id of one is free again.
	must(t, s.PutFlash(ctx, "old", []byte("x"), now.Add(time.Second), now))
	must(t, s.PutFlash(ctx, "new", []byte("y"), now.Add(time.Minute), now.Add(2*time.Second)))
	must(t, s.PutFlash(ctx, "old", []byte("z"), now.Add(time.Minute), now.Add(2*time.Second)))
	got, err = s.TakeFlash(ctx, "old", now.Add(3*time.Second))
	must(t, err)
	if string(got) != "z" {
		t.Fatalf("TakeFlash of an id put again once expired: %q, want z", got)
	}

	// A take deletes the expired too: with no put after it, the last
	// flash made is not kept past its minute (taken at a time before its
	// expiry, it is gone).
	must(t, s.PutFlash(ctx, "last", []byte("x"), now.Add(time.Minute), now))
	_, err = s.TakeFlash(ctx, "other", now.Add(2*time.Minute))
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.TakeFlash(ctx, "last", now)
	wantCode(t, err, vigil.ENOTFOUND)

	for _, tc := range []struct {
		id      string
		value   []byte
		expires time.Time
		want    string
	}{
		{"", nil, now.Add(time.Second), "id required"},
		{strings.Repeat("i", vigil.MaxFlashID+1), nil, now.Add(time.Second), "id longer"},
		{"v", make([]byte, vigil.MaxFlashValue+1), now.Add(time.Second), "value of"},
		{"e", nil, now, "not after now"},
		{"f", nil, now.Add(vigil.MaxFlashTTL + time.Second), "past the most"},
	} {
		err := s.PutFlash(ctx, tc.id, tc.value, tc.expires, now)
		if vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("PutFlash(%.10q, %d bytes, %v): %v; want EINVALID saying %q", tc.id, len(tc.value), tc.expires.Sub(now), err, tc.want)
		}
	}
}

// testFlashTakenOnce checks that of several takes of one flash at once
// one alone gets it.
func testFlashTakenOnce(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	now := time.Now()
	const takers = 8
	for round := range 5 {
		id := "once" + string(rune('a'+round))
		must(t, s.PutFlash(ctx, id, []byte("v"), now.Add(time.Minute), now))
		var wg sync.WaitGroup
		var mu sync.Mutex
		taken := 0
		for range takers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.TakeFlash(ctx, id, now)
				if vigil.ErrorCode(err) != vigil.ENOTFOUND && err != nil {
					t.Errorf("TakeFlash: %v", err)
				}
				if err == nil {
					mu.Lock()
					taken++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if taken != 1 {
			t.Fatalf("%d takes at once of one flash: %d got it, want 1", takers, taken)
		}
	}
}
