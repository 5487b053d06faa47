package opic

import (
	"fmt"
	"math"
	"time"
)

// History is a history policy of adaptive OPIC (seed §7.5): what a page
// keeps of the cash it collected at its reads. It is one of Cumulative,
// Interpolation, VariableWindow and FixedWindow.
type History interface {
	historyName() string
}

// Cumulative is the history of static OPIC (Fig. 7.1): H[i] is all the cash
// page i ever collected. It converges on a static graph and never forgets.
type Cumulative struct{}

// Interpolation is the history policy Xyleme used in production: two
// numbers per page, H[i] and Z[i], and H[i] approximates the cash page i
// received in the last Window units of Z before its last read.
type Interpolation struct {
	// Window is T, in units of Z. See InterpolationWindow to derive it from
	// a wall-clock window and the crawl rate.
	Window float64
}

// VariableWindow keeps the last K measures (cash read, Z at the read) of
// each page: the seed's "Variable Window (k)".
type VariableWindow struct {
	K int
}

// FixedWindow keeps every measure of a page taken in the last Window units
// of Z, and at least Min measures (Min = 0 is the seed's Fixed Window,
// Min = 3 its Improved Fixed Window).
type FixedWindow struct {
	Window float64
	Min    int
}

func (Cumulative) historyName() string { return "cumulative" }
func (h Interpolation) historyName() string {
	return fmt.Sprintf("interpolation T=%g", h.Window)
}
func (h VariableWindow) historyName() string { return fmt.Sprintf("variable window k=%d", h.K) }
func (h FixedWindow) historyName() string {
	if h.Min > 0 {
		return fmt.Sprintf("improved fixed window T=%g min=%d", h.Window, h.Min)
	}
	return fmt.Sprintf("fixed window T=%g", h.Window)
}

// HistoryName returns a short description of a history policy.
func HistoryName(h History) string {
	if h == nil {
		return Cumulative{}.historyName()
	}
	return h.historyName()
}

// maxMeasures bounds the measures a window policy keeps per page.
const maxMeasures = 255

func (o *OPIC) setHistory(h History) error {
	switch h := h.(type) {
	case nil, Cumulative, *Cumulative:
		o.kind = kindCumulative
	case Interpolation:
		if err := checkWindow(h.Window); err != nil {
			return err
		}
		o.kind, o.window = kindInterpolation, h.Window
	case *Interpolation:
		return o.setHistory(*h)
	case VariableWindow:
		if h.K < 1 || h.K > maxMeasures {
			return fmt.Errorf("opic: variable window of %d measures: want 1 to %d", h.K, maxMeasures)
		}
		o.kind, o.win = kindWindow, &variableStore{k: h.K}
	case *VariableWindow:
		return o.setHistory(*h)
	case FixedWindow:
		if err := checkWindow(h.Window); err != nil {
			return err
		}
		if h.Min < 0 || h.Min > maxMeasures {
			return fmt.Errorf("opic: fixed window minimum of %d measures: want 0 to %d", h.Min, maxMeasures)
		}
		o.kind, o.win = kindWindow, &fixedStore{t: h.Window, min: h.Min}
	case *FixedWindow:
		return o.setHistory(*h)
	default:
		return fmt.Errorf("opic: unknown history policy %T", h)
	}
	return nil
}

func checkWindow(t float64) error {
	if !(t > 0) || math.IsInf(t, 0) {
		return fmt.Errorf("opic: window %v: want a positive number of Z units", t)
	}
	return nil
}

// SetWindow changes T of an Interpolation history, for instance when the
// crawl rate changes and the wall-clock window is kept.
func (o *OPIC) SetWindow(t float64) error {
	if o.kind != kindInterpolation {
		return fmt.Errorf("opic: set window: history is not Interpolation")
	}
	if err := checkWindow(t); err != nil {
		return err
	}
	o.window = t
	return nil
}

// Resume returns the state of len(est) pages that a crawler resumes from
// the Interpolation estimates H/T it kept of them (Estimate), when it kept
// those and not the whole state (WriteTo): page i's history is est[i]·T,
// and the cash, 1 in all, is spread in proportion to the estimates
// (uniformly if they are all 0), which is how it lies at the fixpoint when
// pages are read about equally often, so that no page's first read
// collects much more than a read of the old state would have. Every page
// was last read at Z = 0 and Z is 1/Σ est (0 if all are 0): the Z its
// cash took to come, so that its Estimate is est[i] and its first read
// keeps H/T there rather than adding the cash to a whole window.
// cfg.History must be Interpolation; an estimate must be from 0 to 1.
func Resume(est []float64, cfg Config) (*OPIC, error) {
	switch h := cfg.History.(type) {
	case Interpolation, *Interpolation:
	default:
		return nil, fmt.Errorf("opic: resume: history %s is not Interpolation", HistoryName(h))
	}
	o, err := New(len(est), cfg)
	if err != nil {
		return nil, err
	}
	sum := 0.0
	for i, e := range est {
		if !(e >= 0 && e <= 1) {
			return nil, fmt.Errorf("opic: resume: estimate %v of page %d is not from 0 to 1", e, i)
		}
		sum += e
	}
	for i, e := range est {
		o.pages[i].hist = float32(e * o.window)
		if sum > 0 {
			o.pages[i].cash = e / sum
		}
	}
	if sum > 0 {
		// Each page was last read 1/sum of Z ago, at Z = 0: the time its
		// cash, e/sum, takes to come at the rate e. Its next read then
		// makes room in its window for that cash, rather than adding it to
		// a whole window (the estimate rising by 1/(sum·T)).
		o.z = 1 / sum
	}
	return o, nil
}

// ResumeHistory sets H[p], the Interpolation history of page p (the cash
// it received in the window T before its last read), to h: a crawler that
// kept each page's estimate H/T, and not the whole state (WriteTo),
// resumes a page that joins a state later than Resume (AddPage) with h =
// estimate·T, so that its estimate starts there rather than from nothing,
// and the window forgets it as the page's reads bring fresh cash. It returns an error, changing nothing, for another
// history policy (a cumulative H is a share of Z, which must stay Σ H),
// for a page unknown or deleted, and for an h negative or not finite (as
// H is kept, a float32).
func (o *OPIC) ResumeHistory(p PageID, h float64) error {
	if o.kind != kindInterpolation {
		return fmt.Errorf("opic: resume the history of page %d: history is not Interpolation", p)
	}
	if err := o.check("resume the history of", p); err != nil {
		return err
	}
	if !(h >= 0) || math.IsInf(float64(float32(h)), 0) {
		// H is a float32: a finite h beyond its range would be +Inf.
		return fmt.Errorf("opic: resume the history of page %d: %v is no amount of cash", p, h)
	}
	o.pages[p].hist = float32(h)
	return nil
}

// Window returns T of an Interpolation history, 0 for other policies.
func (o *OPIC) Window() float64 {
	if o.kind != kindInterpolation {
		return 0
	}
	return o.window
}

// Interpolate is the seed's Interpolation update of H[i] at a read of page
// i: h is H[i] before the read, c the cash collected since the previous
// read, gap = Z - Z[i] the Z elapsed since then, and window is T:
//
//	gap < T:  H[i] * (T - gap) / T + c   (the overlap of the old window is kept)
//	gap >= T: c * T / gap                (the fresh cash, rescaled to a window)
//
// The branches agree at gap = T.
func Interpolate(h, c, gap, window float64) float64 {
	if gap < window {
		if gap < 0 {
			gap = 0
		}
		return h*(window-gap)/window + c
	}
	return c * window / gap
}

// InterpolationWindow converts a wall-clock window (3 months at Xyleme) into
// T in Z units, given the crawl rate in page reads per second and the mean
// growth of Z per read (OPIC.ZPerRead, about 2/n with Greedy).
func InterpolationWindow(wall time.Duration, readsPerSecond, zPerRead float64) float64 {
	return wall.Seconds() * readsPerSecond * zPerRead
}

// windowStore keeps the measures of the window policies.
type windowStore interface {
	// grow extends the store to n pages, new pages discovered at Z = z.
	grow(n int, z float64)
	// record adds the measure (c, z) of a read of p at global time z.
	record(p PageID, c, z float64)
	// rate returns the cash per unit of Z over p's measures and the cash c
	// collected since the last of them, as of global time now.
	rate(p PageID, c, now float64) float64
	// merge drops from's measures; into keeps its own.
	merge(from, into PageID)
}

type measure struct {
	c, z float64
}

// variableStore keeps the last k measures of each page in a ring, and z0,
// the Z of the read before the oldest kept measure (or of the discovery).
type variableStore struct {
	k     int
	m     []measure // k per page
	head  []uint8   // index of the oldest measure
	count []uint8
	z0    []float64
}

func (s *variableStore) grow(n int, z float64) {
	for len(s.z0) < n {
		s.z0 = append(s.z0, z)
		s.head = append(s.head, 0)
		s.count = append(s.count, 0)
		for range s.k {
			s.m = append(s.m, measure{})
		}
	}
}

func (s *variableStore) record(p PageID, c, z float64) {
	ring := s.m[int(p)*s.k : int(p+1)*s.k]
	if int(s.count[p]) < s.k {
		ring[(int(s.head[p])+int(s.count[p]))%s.k] = measure{c, z}
		s.count[p]++
		return
	}
	h := int(s.head[p])
	s.z0[p] = ring[h].z
	ring[h] = measure{c, z}
	s.head[p] = uint8((h + 1) % s.k)
}

func (s *variableStore) rate(p PageID, c, now float64) float64 {
	ring := s.m[int(p)*s.k : int(p+1)*s.k]
	sum := c
	for i := 0; i < int(s.count[p]); i++ {
		sum += ring[(int(s.head[p])+i)%s.k].c
	}
	if now <= s.z0[p] {
		return 0
	}
	return sum / (now - s.z0[p])
}

func (s *variableStore) merge(from, into PageID) {
	s.count[from] = 0
}

// fixedStore keeps the measures of the last t units of Z, at least min.
type fixedStore struct {
	t   float64
	min int
	m   [][]measure
	z0  []float64
}

func (s *fixedStore) grow(n int, z float64) {
	for len(s.z0) < n {
		s.z0 = append(s.z0, z)
		s.m = append(s.m, nil)
	}
}

func (s *fixedStore) record(p PageID, c, z float64) {
	ms := append(s.m[p], measure{c, z})
	drop := 0
	for drop < len(ms)-s.min && ms[drop].z < z-s.t && drop < len(ms)-1 {
		drop++
	}
	if drop > 0 {
		s.z0[p] = ms[drop-1].z
		ms = append(ms[:0], ms[drop:]...)
	}
	if len(ms) > maxMeasures {
		s.z0[p] = ms[0].z
		ms = append(ms[:0], ms[1:]...)
	}
	s.m[p] = ms
}

func (s *fixedStore) rate(p PageID, c, now float64) float64 {
	sum := c
	for _, m := range s.m[p] {
		sum += m.c
	}
	if now <= s.z0[p] {
		return 0
	}
	return sum / (now - s.z0[p])
}

func (s *fixedStore) merge(from, into PageID) {
	s.m[from] = nil
}

// Measures returns the mean number of measures a window policy stores per
// live page (1 for Interpolation and Cumulative: the history itself).
func (o *OPIC) Measures() float64 {
	if o.live == 0 {
		return 0
	}
	total := 0
	switch s := o.win.(type) {
	case *variableStore:
		for i := range o.pages {
			if !o.pages[i].deleted() {
				total += int(s.count[i])
			}
		}
	case *fixedStore:
		for i := range o.pages {
			if !o.pages[i].deleted() {
				total += len(s.m[i])
			}
		}
	default:
		return 1
	}
	return float64(total) / float64(o.live)
}
