package monitor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/spec"
)

// goroutinePanicFetcher fails every fetch with a panic recovered on a
// goroutine of its own, as the fetcher's guard proxy and browser
// goroutines return theirs.
type goroutinePanicFetcher struct{}

func (goroutinePanicFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	err := <-vigil.Go(func() error { panic("tunnel to " + req.URL + "?token=SECRET: nil conn") })
	return nil, errors.Join(errors.New("render: the browser's connection failed"), err)
}

// compressPanicCodec is the zstd codec whose fast compression (on the
// warehouse's goroutine) panics.
type compressPanicCodec struct{ *zstd.Codec }

func (compressPanicCodec) CompressFast([]byte) ([]byte, error) {
	panic("compress https://a.example.test/?token=SECRET: index out of range")
}

// TestRecoveredPanicCounted: a panic that the fetcher or the warehouse
// recovered on a goroutine of its own, and returned as the error of the
// fetch or of the write, fails the check as that error does (the
// sentinel's check is recorded, failed), and the monitor logs it with
// its stack and counts it where it struck (PanicFetch, PanicStore).
func TestRecoveredPanicCounted(t *testing.T) {
	for _, in := range []string{PanicFetch, PanicStore} {
		t.Run(in, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			const url = "https://a.example.test/"
			clock := time.Now().UTC().Truncate(time.Minute)
			s := createSentinel(t, db, spec.NewChecker(clock), u, "a", "Create Sentinel a Using "+url+" Monitor any change\n")
			var f vigil.Fetcher = &pagesFetcher{pages: map[string]string{url: "<p>a</p>"}}
			if in == PanicFetch {
				f = goroutinePanicFetcher{}
			} else {
				z, err := zstd.New(0)
				if err != nil {
					t.Fatal(err)
				}
				if wh, err = warehouse.New(CachedResources(db), warehouse.Options{Codec: compressPanicCodec{z}}); err != nil {
					t.Fatal(err)
				}
			}
			var logs syncBuffer
			var panics []string
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute},
				Now: func() time.Time { return clock }, Logger: slogJSON(&logs),
				Panicked: func(in string) { panics = append(panics, in) }}
			runOnce(t, m, 1)
			if len(panics) != 1 || panics[0] != in {
				t.Errorf("panics counted %v; want [%s]", panics, in)
			}
			log := logs.String()
			if !strings.Contains(log, `"level":"ERROR"`) || !strings.Contains(log, `"stack":"goroutine`) || !strings.Contains(log, `"in":"`+in+`"`) ||
				!strings.Contains(log, "panic: ") {
				t.Errorf("the panic is not logged with its value, stack and where:\n%s", log)
			}
			if strings.Contains(log, "SECRET") {
				t.Errorf("the panic's secret is logged:\n%s", log)
			}
			cur, err := db.FindSentinelByID(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !cur.LastCheck.Equal(clock) || !cur.NextCheck.After(clock) {
				t.Errorf("sentinel last checked %v, next %v; want checked at %v, failed, due later", cur.LastCheck, cur.NextCheck, clock)
			}
		})
	}
}
