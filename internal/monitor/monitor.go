package monitor

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// Store is what the monitor needs of a backend.
type Store interface {
	vigil.ResourceStore
	vigil.VersionStore
	vigil.SentinelStore
	vigil.ChangeStore
	vigil.CheckStore
	// FindUserByID reads a sentinel's owner, in whose zone its messages
	// say times (ownerZone); ENOTFOUND if the user does not exist.
	FindUserByID(ctx context.Context, id int64) (*vigil.User, error)
}

// Monitor runs sentinels. Set the fields, then call Run (or RunOnce).
type Monitor struct {
	Store     Store
	Warehouse *warehouse.Warehouse
	Fetcher   vigil.Fetcher
	// SharedStore says that other processes may store versions in Store
	// while this monitor runs: several vigil serve workers on one
	// PostgreSQL store. The monitor keeps the newest version it saw of
	// each page (headCache); with a shared store, a read that would find
	// a page unchanged against that cached version first confirms it
	// with one read of the store's newest (see headCache). A SQLite store
	// is held by one daemon and needs no such read.
	SharedStore bool
	Policy      schedule.Policy
	Logger      *slog.Logger
	// Detect tunes user-intent detection.
	Detect *intent.Options

	Lease time.Duration // 5m: a claimed sentinel is hidden this long from other schedulers
	Batch int           // 256 sentinels claimed at a time
	// Workers is how many pages are fetched and compared at once: 16.
	// Sites are crawled on at most half of them (at least one, see
	// siteSlots), since a site's check holds its worker for up to the
	// lease: a site due while those are all crawling is given back,
	// still due, and checked at a later round when one is free, neither
	// failed nor deferred.
	Workers int
	// Fresh lets a page fetched less than Fresh ago serve another sentinel
	// without a new fetch (0: only within one batch).
	Fresh time.Duration
	// SiteFresh lets a site's crawl that ended less than SiteFresh ago
	// serve the checks of the other sentinels watching the same site
	// query, instead of crawls of their own (sitecrawl.go); a crawl in
	// flight always serves them. Policy.MinInterval (1m) if zero: a
	// crawl so recent is younger than the interval between any
	// sentinel's two checks, so taking it moves what a sentinel sees
	// back by less than its own interval (no change is lost: the next
	// check compares with it). None if negative.
	SiteFresh time.Duration
	// BestEffortDelay is how much later than immediate ones best-effort
	// notifications become due: 2s.
	BestEffortDelay time.Duration
	// PendingPoll is how often a sentinel waiting for another sentinel's
	// event is looked at again, in case a wake-up was missed: 1m.
	PendingPoll time.Duration
	// Delivered, if not nil, is called after notifications were enqueued
	// (to wake the outbox worker).
	Delivered func()
	// BodyCache is how many bytes of recent bodies are kept in memory for
	// the next comparison: 32 MiB if zero, none if negative.
	BodyCache int
	// MemoryBudget bounds the memory, in bytes, that the comparisons of
	// versions running at once may hold (see memoryBudget): 1 GiB if
	// zero, unbounded if negative.
	MemoryBudget int64
	// Committed, if not nil, is called with the number of check records
	// after each successful commit (benchmarks count checks with it).
	Committed func(n int)
	// MessageLink, if not nil, returns a link for a sentinel's messages
	// that needs no account (its feed, at the feed generation of the
	// sentinel it is given: the monitor gives it the sentinel as stored
	// when the message is written, see links).
	MessageLink func(s *vigil.Sentinel) string
	// DashboardLink, if not nil, returns the link of a sentinel's page on
	// the dashboard, where its changes are shown in place.
	DashboardLink func(sentinelID int64) string
	// FailureNotice is how long a watched page must fail (every fetch an
	// error) before its sentinels' contacts are told, once, and then told
	// again when it works: 6h if zero, never if negative.
	FailureNotice time.Duration
	// Location is the deployment's time zone (vigil serve --tz): the one
	// a sentinel saved before sentinels kept theirs (Sentinel.TimeZone
	// empty) was checked in. A sentinel's lifespan runs in its own
	// Sentinel.TimeZone, the spec.Checker.Location it was checked in, and
	// in this one only when it has none: a day, week or month added to
	// another sentinel's event keeps its clock there
	// (schedule.Lifespan.Location). The messages of an owner who set no
	// zone (vigil.User.TimeZone) say their times in it (ownerZone). Nil
	// is UTC.
	Location *time.Location
	// Panicked, if not nil, is called once for each panic recovered,
	// with where it struck (PanicCheck: a group of checks, see
	// checkGroup; PanicFetch, PanicStore, PanicClaim, PanicCommit).
	Panicked func(in string)

	Now  func() time.Time
	Rand func() float64 // in [0, 1)

	plans     planCache
	recent    recentFetches
	resMu     sync.Mutex
	resources map[string]int64 // resource ids by URL, bounded
	bodies    bodyCache
	budget    memoryBudget
	heads     headCache
	pages     pageLocks
	// told holds the lines saying an owner was told, until their
	// check is recorded.
	told    toldLog
	idxMu   sync.Mutex
	indexes map[int64]*ownerIndex
	flight  inFlight

	// documentsRead counts the versions read into their trees
	// (document), which the tests of what a check shares count.
	documentsRead atomic.Int64

	// siteCrawls are the site crawls in flight and those ended less than
	// SiteFresh ago, shared by the sentinels of one site query.
	siteCrawls siteCrawls
	// unrecorded are the versions stored without why each is read as
	// text, until the monitor reads them.
	unrecorded unrecordedSet
	// sites holds a token per site being crawled, at most siteSlots;
	// siteFree wakes Run when one is given back.
	sites    chan struct{}
	siteFree chan struct{}
	// rank is the importance of the pages checked (importance.go).
	rank importance
	once sync.Once
}

// siteSlots is how many sites are crawled at once: half the workers, at
// least one.
func (m *Monitor) siteSlots() int { return max(1, m.Workers/2) }

func (m *Monitor) init() {
	m.once.Do(func() {
		if m.Lease <= 0 {
			m.Lease = 5 * time.Minute
		}
		if m.Batch <= 0 {
			m.Batch = 256
		}
		if m.Workers <= 0 {
			m.Workers = 16
		}
		if m.BestEffortDelay <= 0 {
			m.BestEffortDelay = 2 * time.Second
		}
		if m.PendingPoll <= 0 {
			m.PendingPoll = time.Minute
		}
		if m.SiteFresh == 0 {
			m.SiteFresh = m.Policy.MinInterval
			if m.SiteFresh <= 0 {
				m.SiteFresh = time.Minute // the policy's default
			}
		}
		if m.FailureNotice == 0 {
			m.FailureNotice = 6 * time.Hour
		}
		if m.Now == nil {
			m.Now = time.Now
		}
		if m.Rand == nil {
			m.Rand = rand.Float64
		}
		if m.Logger == nil {
			m.Logger = slog.New(slog.DiscardHandler)
		}
		m.plans.max = 8192
		m.plans.m = m
		m.recent.max = 1 << 17
		m.heads.max = 1 << 17
		if m.BodyCache == 0 {
			m.BodyCache = 32 << 20
		}
		m.bodies.max = m.BodyCache
		if m.MemoryBudget == 0 {
			m.MemoryBudget = defaultMemoryBudget
		}
		m.budget.total = max(m.MemoryBudget, 0)
		m.budget.free = m.budget.total
		m.sites = make(chan struct{}, m.siteSlots())
		m.siteFree = make(chan struct{}, 1)
	})
}

// job is one claimed sentinel being checked.
type job struct {
	s    *vigil.Sentinel
	plan *plan
	st   *state
	rec  *vigil.CheckRecord
	// outcome of the check, for the schedule
	outcome schedule.Outcome
	// checked and busy count the job's pages read (or failed) and those
	// whose fetch waited in vain for its host's turn: a check that read
	// none, all its pages' hosts busy, is deferred.
	checked, busy int
	nextAt        time.Time // earliest extra wake-up (confirmation, digest)
	// imp is the importance of each page the check read, impStore
	// whether one is to be stored, impSettled whether every one is
	// settled (pageImportance, recordImportance).
	imp                  []vigil.PageImportance
	impStore, impSettled bool
	// zone is the zone its messages say times in (location), its
	// owner's as the check began (ownerZone).
	zone *time.Location
}

// RunOnce claims one batch of due sentinels, checks them and records the
// checks in one transaction. It returns the number of sentinels checked.
// If ctx ends before the checks are recorded, nothing is: the claims are
// released (see Run) and RunOnce returns 0 and ctx's error.
func (m *Monitor) RunOnce(ctx context.Context) (int, error) {
	m.init()
	claimed, err := m.Store.ClaimDueSentinels(ctx, m.Now(), m.Lease, m.Batch)
	if err != nil || len(claimed) == 0 {
		return 0, err
	}
	var mu sync.Mutex
	var recs []*vigil.CheckRecord
	m.checkBatch(ctx, claimed, func(r *vigil.CheckRecord) {
		mu.Lock()
		recs = append(recs, r)
		mu.Unlock()
	}, nil, nil, nil) // waits for the sites' slots: none is given back
	if ctx.Err() != nil {
		leases := make([]vigil.SentinelLease, len(claimed))
		for i, s := range claimed {
			leases[i] = vigil.SentinelLease{SentinelID: s.ID, Until: s.NextCheck}
		}
		if err := m.release(ctx, leases); err != nil {
			return 0, err
		}
		return 0, ctx.Err()
	}
	return len(claimed), m.commit(ctx, recs)
}

// releaseTimeout bounds the release of claims when a run stops.
const releaseTimeout = 5 * time.Second

// release gives back claims that will not be checked, so that the next
// run checks them at once rather than when their lease ends. ctx is the
// run's, already ended: the release has its own short one.
func (m *Monitor) release(ctx context.Context, leases []vigil.SentinelLease) error {
	if len(leases) == 0 {
		return nil
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if _, err := m.Store.ReleaseSentinels(rctx, leases, m.Now()); err != nil {
		return fmt.Errorf("release the claims of %d unchecked sentinels: %w", len(leases), err)
	}
	return nil
}

// Run checks sentinels as they fall due until ctx ends. Up to Workers
// pages are in flight; check records are committed in groups by a single
// writer. When no sentinel is due, it reads why stored versions not known
// yet are read as text, a small batch at a time (fillReadAsText), before
// waiting.
//
// When ctx ends, Run waits for the checks in flight to be recorded, then
// releases the claims of the sentinels it claimed and did not check, so
// that they are due again at once (claims of other schedulers sharing
// the store are left alone). It returns ctx's error, or the error of that
// release if it fails. A run that ends otherwise (a crash) leaves its
// claims to their lease.
func (m *Monitor) Run(ctx context.Context, poll time.Duration, kick <-chan struct{}) (err error) {
	m.init()
	m.flight.mu.Lock()
	m.flight.busy, m.flight.waiting, m.flight.ready, m.flight.held = nil, nil, nil, nil // what a previous Run left in flight is over
	m.flight.wake = make(chan struct{}, 1)
	m.flight.mu.Unlock()
	c := &committer{m: m, in: make(chan *vigil.CheckRecord, 4*m.Batch), done: make(chan struct{})}
	go c.run()
	slots := make(chan struct{}, m.Workers)
	defer func() {
		for range m.Workers { // wait for the groups in flight
			slots <- struct{}{}
		}
		close(c.in)
		<-c.done
		if rerr := m.release(ctx, m.flight.leases()); rerr != nil {
			err = rerr
		}
	}()
	// A check abandoned because ctx ended keeps its claim, released on
	// return; one abandoned while running is left to its lease.
	abandon := func(ids []int64) { m.flight.done(ids, ctx.Err() != nil) }
	for ctx.Err() == nil {
		// A panic in the round's claim, or in starting its checks (before
		// checkGroup's guard: reading their states, grouping them), is
		// logged and counted (PanicClaim); the sentinels it admitted and
		// had not handed on (handed: their record sunk, their check
		// started or given back) are abandoned, to be claimed again once
		// their lease ends, and the claim is tried again at the next
		// poll. Those handed on are over when their record is committed:
		// abandoned now, they would be claimed and checked again while
		// their first check runs.
		var admitted []*vigil.Sentinel
		handed := map[int64]bool{}
		wait := true
		perr := vigil.Protect(func() error {
			claimed, err := m.Store.ClaimDueSentinels(ctx, m.Now(), m.Lease, m.Batch)
			if err != nil {
				if ctx.Err() != nil {
					return nil // the loop ends
				}
				m.Logger.Error("claim due sentinels", LogError, err)
			}
			admitted = append(m.flight.takeReady(), m.flight.admit(claimed)...)
			// Idle, the monitor reads why versions are read as text in
			// the background, a small batch at a time, claiming between
			// batches.
			idle := len(admitted) == 0
			if idle && m.fillReadAsText(ctx) {
				wait = false
				return nil
			}
			// A batch of sites alone, all given back for want of a site
			// slot, waits as an empty one does (or for a slot): claimed
			// again at once, they would be given back again.
			wait = idle || m.checkBatch(ctx, admitted, func(r *vigil.CheckRecord) { c.in <- r }, slots, abandon, handed) == len(admitted)
			return nil
		})
		if perr != nil {
			reportPanic(m.Logger, m.Panicked, PanicClaim, "claim due sentinels: panicked", perr, perr.Error())
			var left []int64
			for _, s := range admitted {
				if !handed[s.ID] {
					left = append(left, s.ID)
				}
			}
			abandon(left)
		}
		if wait {
			select {
			case <-ctx.Done():
			case <-time.After(poll):
			case <-kick:
			case <-m.flight.wake:
			case <-m.siteFree:
			}
		}
	}
	return ctx.Err()
}

// checkBatch checks the claimed sentinels and hands each one's record to
// sink. Sentinels watching the same URL share one fetch. With slots, page
// groups run on at most cap(slots) goroutines and checkBatch returns once
// they are all started; without, it runs them on Workers goroutines and
// waits. If the batch cannot be checked, abandon (if not nil) is called
// with the ids of its sentinels, which no record will follow.
//
// Sites are crawled on at most siteSlots goroutines. With slots, a site
// for which none is free is given back (its claim released: due at once,
// checked at a later round), abandoned without a record; checkBatch
// returns how many sentinels it gave back. Without, it waits for a slot,
// once the pages are started.
//
// handed (if not nil) gets the id of each sentinel whose check checkBatch
// has handed on, as it does: its record sunk, its group started on a
// goroutine, its claim given back. If checkBatch panics, the others, and
// they alone, are the caller's to abandon.
func (m *Monitor) checkBatch(ctx context.Context, claimed []*vigil.Sentinel, sink func(*vigil.CheckRecord), slots chan struct{}, abandon func([]int64), handed map[int64]bool) int {
	hand := func(ids ...int64) {
		if handed != nil {
			for _, id := range ids {
				handed[id] = true
			}
		}
	}
	now := m.Now()
	ids := make([]int64, len(claimed))
	for i, s := range claimed {
		ids[i] = s.ID
	}
	states, err := m.Store.SentinelStates(ctx, ids)
	if err != nil {
		m.Logger.Error("read sentinel states", LogError, err)
		if abandon != nil {
			abandon(ids)
		}
		return 0 // the lease brings them back
	}
	lookups := map[int64]schedule.Lookup{}
	// The owners' zones, read once a batch (ownerZone).
	zones := map[int64]*time.Location{}
	var watched []rankCandidate // the pages checked, for their importance
	groups := map[string][]*job{}
	var order []string
	for _, s := range claimed {
		j := &job{s: s, st: decodeState(states[s.ID]), rec: &vigil.CheckRecord{SentinelID: s.ID, CheckedAt: now, Leased: s.NextCheck}}
		p, err := m.plans.get(s)
		if err != nil {
			// A sentinel whose specification cannot be read is not
			// checked; it is looked at again after a day.
			m.Logger.Error("sentinel specification", LogSentinel, s.ID, LogError, err)
			j.rec.NextCheck = now.Add(24 * time.Hour)
			j.rec.State = j.st.encode()
			sink(j.rec)
			hand(s.ID)
			continue
		}
		j.plan = p
		j.zone = p.location()
		// Only a message sent, and a site's notes on its pages (stored
		// with the change, shown as written), are written in it.
		if len(p.contacts) > 0 || p.site != nil {
			j.zone = m.ownerZone(ctx, s, p, zones)
		}
		j.st.follow(p.urls)
		j.st.unwatched(p.urls)
		if p.site != nil {
			j.st.Site = true
		} else if j.st.Site {
			// Edited to watch pages: its last crawl is dropped, lest it be
			// what the sentinel compares with if edited back to the site,
			// reporting all that changed meanwhile as one change.
			j.st.Site, j.rec.DropSite = false, true
		}
		if c := j.st.Confirm; c != nil && !slices.Contains(p.urls, c.URL) {
			// The sentinel was edited to watch other pages: a change of
			// one it left waits for a check that will never come, and
			// held back every change of the others.
			j.st.Confirm = nil
		}
		// The lifespan and a digest due alone run here, and may panic as
		// a check may (checkGroup): the sentinel's check is then recorded
		// failed from its state as stored.
		start := begun{state: states[s.ID], rec: *j.rec, nextAt: j.nextAt}
		done := false
		if !m.guard(ctx, []*job{j}, []begun{start}, false, sink, abandon, func() {
			if check, ended := m.lifespan(ctx, j, now, lookups); !check {
				if j.st.Status.Phase() == schedule.Ended {
					// After the last digest: the notice is the
					// sentinel's last word, and waits for it when
					// the store cannot give it yet.
					if m.endDigest(ctx, j, now) {
						if ended || j.st.EndNotice {
							m.lifespanEnded(ctx, j, now)
						}
						j.st.EndNotice = false
					} else if ended {
						j.st.EndNotice = true
					}
					j.rec.State = j.st.encode()
				}
				done = true
			} else if j.digestOnly(now) {
				m.sendDigestOnly(ctx, j, now)
				done = true
			}
		}) {
			hand(s.ID) // recorded failed, or abandoned
			continue
		}
		if done {
			sink(j.rec)
			hand(s.ID)
			continue
		}
		// A site's start page too: its checks read it (readSiteImportance).
		for i, u := range p.urls {
			watched = append(watched, rankCandidate{url: u, key: p.keys[i], importance: s.Importance})
		}
		// A sentinel on several pages (Using a OR b) is one group: its
		// pages are checked in turn by one goroutine, which owns its state.
		url := strings.Join(p.urls, "\x00")
		if p.render {
			url = "render:" + url
		}
		if p.site != nil {
			// A site is crawled for its sentinel alone: the previous crawl
			// it compares with is the sentinel's.
			url = siteGroup + strconv.FormatInt(s.ID, 10)
		}
		if _, ok := groups[url]; !ok {
			order = append(order, url)
		}
		groups[url] = append(groups[url], j)
	}
	m.joinImportance(watched, now)
	var wg sync.WaitGroup
	wait := slots == nil
	if slots == nil {
		slots = make(chan struct{}, m.Workers)
	}
	// Sites last: a site waiting for its slot does not hold back pages.
	slices.SortStableFunc(order, func(a, b string) int {
		switch sa, sb := strings.HasPrefix(a, siteGroup), strings.HasPrefix(b, siteGroup); {
		case sa == sb:
			return 0
		case sa:
			return 1
		}
		return -1
	})
	var given []vigil.SentinelLease
	for _, key := range order {
		jobs := groups[key]
		site := strings.HasPrefix(key, siteGroup)
		if site {
			if wait {
				m.sites <- struct{}{}
			} else {
				select {
				case m.sites <- struct{}{}:
				default:
					for _, j := range jobs {
						given = append(given, vigil.SentinelLease{SentinelID: j.s.ID, Until: j.s.NextCheck})
					}
					continue
				}
			}
		}
		slots <- struct{}{}
		wg.Add(1)
		hand(jobIDs(jobs)...)
		go func() {
			defer func() {
				<-slots
				if site {
					<-m.sites
					select {
					case m.siteFree <- struct{}{}:
					default:
					}
				}
				wg.Done()
			}()
			m.checkGroup(ctx, key, site, jobs, now, sink, abandon)
		}()
	}
	if len(given) > 0 {
		m.giveBack(ctx, given, abandon)
		for _, l := range given {
			hand(l.SentinelID)
		}
	}
	if wait {
		wg.Wait()
	}
	return len(given)
}

// giveBack releases the claims of sentinels given back unchecked, so
// that they are due at once, and ends their checks (abandon): their site
// slots were all taken. If the release fails, their lease brings them
// back.
func (m *Monitor) giveBack(ctx context.Context, leases []vigil.SentinelLease, abandon func([]int64)) {
	if _, err := m.Store.ReleaseSentinels(ctx, leases, m.Now()); err != nil && ctx.Err() == nil {
		m.Logger.Error("give back sites waiting for a slot", LogError, err)
	}
	ids := make([]int64, len(leases))
	for i, l := range leases {
		ids[i] = l.SentinelID
	}
	if abandon != nil {
		abandon(ids)
	}
}

// siteGroup begins the key of a group that is a site's sentinel.
const siteGroup = "site:"

// lifespan evaluates the sentinel's lifespan rules; it returns check true
// if the sentinel is active and must be checked now. Otherwise j.rec is
// complete but for the notices, and ended says the lifespan ended now,
// which the caller tells (lifespanEnded) once the last digest is out.
func (m *Monitor) lifespan(ctx context.Context, j *job, now time.Time, lookups map[int64]schedule.Lookup) (check, ended bool) {
	var lookup schedule.Lookup
	if len(j.plan.lifespan.Refs()) > 0 {
		lookup = lookups[j.s.OwnerID]
		if lookup == nil {
			lookup = m.ownerLookup(ctx, j.s.OwnerID)
			lookups[j.s.OwnerID] = lookup
		}
	}
	was := j.st.Status.Phase()
	tr := j.plan.lifespan.Evaluate(now, j.st.Status, lookup)
	j.st.Status = tr.Status
	if len(tr.Raised) > 0 {
		j.rec.Wake = m.dependants(ctx, j.s)
		m.Logger.Info("sentinel lifespan event", LogSentinel, j.s.ID, "phase", tr.Status.Phase().String())
	}
	switch tr.Status.Phase() {
	case schedule.Active:
		j.st.EndNotice = false // edited to live on before its notice went
		if !tr.Wake.IsZero() {
			j.nextAt = tr.Wake
		}
		return true, false
	case schedule.Ended:
		j.rec.NextCheck = now.AddDate(50, 0, 0) // never again, unless edited
		ended = was != schedule.Ended
	default:
		next := now.Add(m.PendingPoll)
		if !tr.Wake.IsZero() && tr.Wake.Before(next) {
			next = tr.Wake
		}
		j.rec.NextCheck = next
	}
	j.rec.State = j.st.encode()
	return false, ended
}

// ownerIndex maps an owner's sentinel names to ids, and each name to the
// sentinels whose lifespan waits on its events. It is rebuilt at most every
// indexTTL: a dependant added since is found by its own PendingPoll.
type ownerIndex struct {
	built      time.Time
	byName     map[string]int64
	dependants map[string][]int64
}

const indexTTL = 30 * time.Second

func (m *Monitor) ownerIndex(ctx context.Context, owner int64) (*ownerIndex, error) {
	m.idxMu.Lock()
	idx := m.indexes[owner]
	m.idxMu.Unlock()
	if idx != nil && time.Since(idx.built) < indexTTL {
		return idx, nil
	}
	idx = &ownerIndex{built: time.Now(), byName: map[string]int64{}, dependants: map[string][]int64{}}
	// Read by pages: an owner may have many sentinels, and only names and
	// the few lifespans with events are kept.
	const page = 1000
	for off := 0; ; off += page {
		all, _, err := m.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: owner, Offset: off, Limit: page})
		if err != nil {
			return nil, err
		}
		for _, s := range all {
			idx.byName[strings.ToLower(s.Name)] = s.ID
			// Only a sentinel whose From or To names an event needs decoding.
			if !bytes.Contains(s.Spec, []byte(`{"start":`)) && !bytes.Contains(s.Spec, []byte(`{"end":`)) {
				continue
			}
			p, err := m.plans.get(s)
			if err != nil {
				continue
			}
			for _, ref := range p.lifespan.Refs() {
				k := strings.ToLower(ref)
				idx.dependants[k] = append(idx.dependants[k], s.ID)
			}
		}
		if len(all) < page {
			break
		}
	}
	m.idxMu.Lock()
	if m.indexes == nil || len(m.indexes) > 4096 {
		m.indexes = map[int64]*ownerIndex{}
	}
	m.indexes[owner] = idx
	m.idxMu.Unlock()
	return idx, nil
}

// ownerLookup returns the lifespan status of an owner's sentinels by name,
// as stored now.
func (m *Monitor) ownerLookup(ctx context.Context, owner int64) schedule.Lookup {
	idx, err := m.ownerIndex(ctx, owner)
	if err != nil {
		m.Logger.Error("find sentinels", LogError, err)
		return nil
	}
	cache := map[int64]schedule.Status{}
	return func(name string) (schedule.Status, bool) {
		id, ok := idx.byName[strings.ToLower(name)]
		if !ok {
			return schedule.Status{}, false
		}
		if st, ok := cache[id]; ok {
			return st, true
		}
		states, err := m.Store.SentinelStates(ctx, []int64{id})
		if err != nil {
			m.Logger.Error("read sentinel states", LogError, err)
			return schedule.Status{}, false
		}
		st := decodeState(states[id]).Status
		cache[id] = st
		return st, true
	}
}

// dependants returns the sentinels of s's owner whose lifespan waits on an
// event of s.
func (m *Monitor) dependants(ctx context.Context, s *vigil.Sentinel) []int64 {
	idx, err := m.ownerIndex(ctx, s.OwnerID)
	if err != nil {
		m.Logger.Error("find sentinels", LogError, err)
		return nil
	}
	return idx.dependants[strings.ToLower(s.Name)]
}

// finish schedules the next check and encodes the state.
func (m *Monitor) finish(j *job, now time.Time) {
	o := j.outcome
	if o == schedule.Unchanged && j.busy > 0 && j.checked == 0 {
		o = schedule.Deferred
	}
	next := m.Policy.Next(now, j.plan.fetch, &j.st.History, o, 2*m.Rand()-1)
	if !j.nextAt.IsZero() && j.nextAt.Before(next) {
		next = j.nextAt
	}
	// A confirmation or digest (wake) due but not done (the page could
	// not be fetched, the store not read) waits for the next check the
	// policy gives, which backs off on failures: pulled to a time already
	// past, it was tried again at every poll.
	if c := j.st.Confirm; c != nil && c.At.After(now) && c.At.Before(next) {
		next = c.At
	}
	if end := j.st.Status; end.Ended.IsZero() {
		if e, ok := m.endOf(j); ok && e.Before(next) {
			next = e
		}
	}
	j.st.CheckDue = next
	key := exprKey(j.plan.expr)
	if j.plan.site != nil {
		j.st.ScopeNotes = j.st.siteScopeNotes(key)
	} else {
		j.st.ScopeNotes = j.st.scopeNotes(j.plan.urls, key)
		j.st.SiteNotes, j.st.SiteNotesOf = nil, "" // of a site it watched before an edit
	}
	j.st.NotesOf = ""
	if len(j.st.ScopeNotes) > 0 {
		j.st.NotesOf = key
	}
	m.wake(j, now)
}

// wake sets the job's next check: the check due (state.CheckDue), or the
// end of the digest's period if it comes first, and encodes the state.
// The digest's end wakes the sentinel for the digest alone (digestOnly):
// it is not a check of its pages, which keeps the policy's time, backing
// off on failures. It was one, and a sentinel sending a digest every
// minute read its pages, or crawled its site, every minute, failing or
// not.
func (m *Monitor) wake(j *job, now time.Time) {
	next := j.st.CheckDue
	if d := j.st.DigestDue; d.After(now) && d.Before(next) {
		next = d
	}
	j.rec.NextCheck = next
	j.rec.State = j.st.encode()
	recordImportance(j)
	m.rank.keep(j.plan.keys, next)
}

// digestOnly reports whether the claimed job is due for the end of its
// digest's period alone: its check is not due (state.CheckDue, a
// confirmation and the lifespan's wake-up in it), and the sentinel was
// not edited, resumed or asked to be checked now since its last check
// (each sets UpdatedAt). A state from before CheckDue was kept is checked.
func (j *job) digestOnly(now time.Time) bool {
	st := j.st
	if st.CheckDue.IsZero() || !now.Before(st.CheckDue) || st.DigestDue.IsZero() || now.Before(st.DigestDue) {
		return false
	}
	if !j.nextAt.IsZero() && !now.Before(j.nextAt) {
		return false
	}
	return !j.s.UpdatedAt.After(j.s.LastCheck)
}

// sendDigestOnly ends the digest's period of a job due for it alone
// (digestOnly) without reading its pages: the check stays due when it
// was, or at the lifespan's wake-up if earlier. A digest that cannot be
// read waits for that check, as one due but not done at a check does.
func (m *Monitor) sendDigestOnly(ctx context.Context, j *job, now time.Time) {
	if !j.nextAt.IsZero() && j.nextAt.Before(j.st.CheckDue) {
		j.st.CheckDue = j.nextAt
	}
	m.digest(ctx, j, now)
	m.wake(j, now)
}

// endOf returns the absolute end of a sentinel's lifespan, if known.
func (m *Monitor) endOf(j *job) (time.Time, bool) {
	to := j.plan.lifespan.To
	if to.Event == 0 && !to.At.IsZero() {
		return to.At, true
	}
	return time.Time{}, false
}
