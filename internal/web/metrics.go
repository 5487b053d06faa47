package web

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/vigil-web/vigil"
)

// Metrics are the daemon's Prometheus metrics: fetches and their errors
// (counted by the Fetcher that Fetcher wraps), checks and changes (counted
// by the CheckStore that CheckStore wraps) with checks a second over the
// last minute, the queue depths (due sentinels and undelivered
// notifications, read from the store at each scrape), diff time, and the
// panics the daemon recovered from (CountPanic).
type Metrics struct {
	reg          *prometheus.Registry
	fetches      *prometheus.CounterVec
	fetchSeconds prometheus.Histogram
	checks       prometheus.Counter
	changes      prometheus.Counter
	diffSeconds  prometheus.Histogram
	panics       *prometheus.CounterVec

	mu     sync.Mutex
	window [60]struct {
		sec int64
		n   int
	}
	now func() time.Time
}

// NewMetrics returns the metrics, with the queue gauges read from st.
func NewMetrics(st vigil.Store) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), now: time.Now}
	m.fetches = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "vigil_fetches_total",
		Help: "Pages fetched, by result: ok, not_modified or error."}, []string{"result"})
	m.fetchSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "vigil_fetch_duration_seconds",
		Help: "Time to fetch a page.", Buckets: prometheus.ExponentialBuckets(0.01, 2.5, 10)})
	m.checks = prometheus.NewCounter(prometheus.CounterOpts{Name: "vigil_checks_total", Help: "Sentinel checks recorded."})
	m.changes = prometheus.NewCounter(prometheus.CounterOpts{Name: "vigil_changes_total", Help: "Changes detected."})
	m.diffSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "vigil_diff_duration_seconds",
		Help:    "Time to load two versions and compute their delta for the API and dashboard.",
		Buckets: prometheus.ExponentialBuckets(0.001, 3, 10)})
	m.panics = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "vigil_panics_total",
		Help: "Panics the daemon recovered from (a bug, logged with its stack), by where: in the monitor (check, fetch, store, claim, commit), the delivery of notifications (delivery, notifier), the daemon's loops (monitor, outbox, retention) or the HTTP handlers (http)."}, []string{"in"})
	for _, s := range []string{"ok", "not_modified", "error"} {
		m.fetches.WithLabelValues(s)
	}
	m.ShowPanics(PanicHTTP)
	m.reg.MustRegister(m.fetches, m.fetchSeconds, m.checks, m.changes, m.diffSeconds, m.panics,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "vigil_checks_per_second",
		Help: "Sentinel checks a second, over the last minute."}, m.checksPerSecond))
	m.reg.MustRegister(&queueCollector{st: st, now: time.Now})
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (m *Metrics) observeDiff(d time.Duration) {
	if m != nil {
		m.diffSeconds.Observe(d.Seconds())
	}
}

// ShowPanics shows the count of panics recovered in each of where from
// the start, at 0, as a scraper expects of a counter it alerts on: the
// HTTP handlers' (PanicHTTP) are shown by NewMetrics, vigil serve adds
// the monitor's (monitor.Panics) and its loops'.
func (m *Metrics) ShowPanics(where ...string) {
	for _, in := range where {
		m.panics.WithLabelValues(in)
	}
}

// CountPanic counts a panic the daemon recovered from, by where it
// struck: in the monitor ("check", "fetch", "store", "claim", "commit":
// monitor.Monitor.Panicked), in the outbox ("delivery", "notifier":
// monitor.Deliverer.Panicked), in one of vigil serve's loops
// ("monitor", "outbox", "retention"), or in an HTTP handler ("http":
// Server.Recover): a bug, which the log says with its stack.
func (m *Metrics) CountPanic(in string) {
	m.panics.WithLabelValues(in).Inc()
}

func (m *Metrics) countChecks(n int) {
	m.checks.Add(float64(n))
	sec := m.now().Unix()
	m.mu.Lock()
	slot := &m.window[sec%int64(len(m.window))]
	if slot.sec != sec {
		slot.sec, slot.n = sec, 0
	}
	slot.n += n
	m.mu.Unlock()
}

func (m *Metrics) checksPerSecond() float64 {
	now := m.now().Unix()
	m.mu.Lock()
	defer m.mu.Unlock()
	total := 0
	for _, s := range m.window {
		if now-s.sec < int64(len(m.window)) {
			total += s.n
		}
	}
	return float64(total) / float64(len(m.window))
}

// Fetcher returns f counting its fetches.
func (m *Metrics) Fetcher(f vigil.Fetcher) vigil.Fetcher {
	return &countingFetcher{f: f, m: m}
}

type countingFetcher struct {
	f vigil.Fetcher
	m *Metrics
}

func (c *countingFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	start := time.Now()
	res, err := c.f.Fetch(ctx, req)
	c.m.fetchSeconds.Observe(time.Since(start).Seconds())
	switch {
	case err != nil:
		c.m.fetches.WithLabelValues("error").Inc()
	case res.NotModified:
		c.m.fetches.WithLabelValues("not_modified").Inc()
	default:
		c.m.fetches.WithLabelValues("ok").Inc()
	}
	return res, err
}

// CheckStore returns cs counting the checks and changes it records.
func (m *Metrics) CheckStore(cs vigil.CheckStore) vigil.CheckStore {
	return &countingCheckStore{CheckStore: cs, m: m}
}

type countingCheckStore struct {
	vigil.CheckStore
	m *Metrics
}

func (c *countingCheckStore) RecordChecks(ctx context.Context, recs []*vigil.CheckRecord) error {
	if err := c.CheckStore.RecordChecks(ctx, recs); err != nil {
		return err
	}
	n := 0
	for _, r := range recs {
		n += len(r.Changes)
	}
	c.m.countChecks(len(recs))
	c.m.changes.Add(float64(n))
	return nil
}

// queueCollector reads the queue depths from the store at each scrape.
type queueCollector struct {
	st  vigil.Store
	now func() time.Time
}

var (
	dueDesc  = prometheus.NewDesc("vigil_sentinels_due", "Active sentinels due for a check (the monitor's queue).", nil, nil)
	sentDesc = prometheus.NewDesc("vigil_sentinels", "Sentinels, by status.", []string{"status"}, nil)
	outDesc  = prometheus.NewDesc("vigil_notifications_queued", "Notifications waiting for delivery, by state.", []string{"state"}, nil)
)

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- dueDesc
	ch <- sentDesc
	ch <- outDesc
}

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	now := q.now()
	// Sentinels are read in pages, so a large store is scanned in bounded
	// memory.
	due, active, paused := 0, 0, 0
	for off := 0; ; off += 1000 {
		list, _, err := q.st.FindSentinels(ctx, vigil.SentinelFilter{Offset: off, Limit: 1000})
		if err != nil {
			ch <- prometheus.NewInvalidMetric(dueDesc, err)
			return
		}
		for _, s := range list {
			if s.Status == vigil.SentinelActive {
				active++
				if !s.NextCheck.After(now) {
					due++
				}
			} else {
				paused++
			}
		}
		if len(list) < 1000 {
			break
		}
	}
	ch <- prometheus.MustNewConstMetric(dueDesc, prometheus.GaugeValue, float64(due))
	ch <- prometheus.MustNewConstMetric(sentDesc, prometheus.GaugeValue, float64(active), "active")
	ch <- prometheus.MustNewConstMetric(sentDesc, prometheus.GaugeValue, float64(paused), "paused")
	for _, st := range []vigil.NotificationState{vigil.NotificationPending, vigil.NotificationFailed} {
		_, n, err := q.st.FindNotifications(ctx, vigil.NotificationFilter{State: st, Limit: 1})
		if err != nil {
			ch <- prometheus.NewInvalidMetric(outDesc, err)
			return
		}
		ch <- prometheus.MustNewConstMetric(outDesc, prometheus.GaugeValue, float64(n), string(st))
	}
}
