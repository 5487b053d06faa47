package tree

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// XID is a persistent node identifier. The zero XID means "not assigned".
type XID uint64

// XIDMap lists the XIDs of a subtree in post-order (the subtree's root last)
// and, for a whole document, the next XID to allocate (zero when absent).
//
// Its string form is the seed's: "(" item (";" item)* ["|" next] ")", where an
// item is one XID or an ascending inclusive range a-b, for example
// (1-4;10;12;14-15|100).
type XIDMap struct {
	XIDs []XID
	Next XID
}

// Root returns the XID of the subtree's root (the last one), or 0 if empty.
func (m XIDMap) Root() XID {
	if len(m.XIDs) == 0 {
		return 0
	}
	return m.XIDs[len(m.XIDs)-1]
}

// Equal reports whether m and o list the same XIDs in the same order, with
// the same next XID: whether their string forms are equal.
func (m XIDMap) Equal(o XIDMap) bool { return m.Next == o.Next && slices.Equal(m.XIDs, o.XIDs) }

// Max returns the largest XID in the map, or 0 if empty.
func (m XIDMap) Max() XID {
	var max XID
	for _, x := range m.XIDs {
		if x > max {
			max = x
		}
	}
	return max
}

// String returns the seed's compact form of m.
func (m XIDMap) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i := 0; i < len(m.XIDs); {
		j := i
		for j+1 < len(m.XIDs) && m.XIDs[j+1] == m.XIDs[j]+1 {
			j++
		}
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.FormatUint(uint64(m.XIDs[i]), 10))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.FormatUint(uint64(m.XIDs[j]), 10))
		}
		i = j + 1
	}
	if m.Next != 0 {
		b.WriteByte('|')
		b.WriteString(strconv.FormatUint(uint64(m.Next), 10))
	}
	b.WriteByte(')')
	return b.String()
}

// MaxXIDMapLen bounds the number of XIDs a parsed map may expand to, so that
// a short hostile string such as (1-99999999999) cannot exhaust memory.
const MaxXIDMapLen = 1 << 26

// ParseXIDMap parses the seed's string form of an XID-map. Errors name the
// 1-based column of the offending character.
//
// The string is read twice: once to count the XIDs, once to list them in
// an array of that length. A map of a large document (a delta's source and
// target maps, a million XIDs each) grown by appends would take some five
// times its size on the way.
func ParseXIDMap(s string) (XIDMap, error) {
	n, err := CountXIDMap(s)
	if err != nil {
		return XIDMap{}, err
	}
	var m XIDMap
	if n > 0 {
		m.XIDs = make([]XID, 0, n)
	}
	m.Next, _ = parseXIDRanges(s, func(a, b XID) {
		for x := a; ; x++ {
			m.XIDs = append(m.XIDs, x)
			if x == b {
				break
			}
		}
	})
	return m, nil
}

// CountXIDMap returns the number of XIDs the string form s of an XID-map
// lists, without listing them: a map's size can be compared with a
// document's before the map is expanded. Its errors are ParseXIDMap's.
func CountXIDMap(s string) (int, error) {
	var n uint64
	_, err := parseXIDRanges(s, func(a, b XID) { n += uint64(b-a) + 1 })
	return int(n), err
}

// parseXIDRanges parses an XID-map's string form, calls ranges with each
// of its ranges a-b in order (a single XID is a range of one), and returns
// the map's next XID (0 if it states none).
func parseXIDRanges(s string, ranges func(a, b XID)) (XID, error) {
	p := xidParser{s: s}
	if !p.eat('(') {
		return 0, p.errorf("expected '('")
	}
	if p.eat(')') {
		if p.i != len(s) {
			return 0, p.errorf("unexpected text after ')'")
		}
		return 0, nil
	}
	var n uint64 // XIDs so far
	for {
		a, err := p.number()
		if err != nil {
			return 0, err
		}
		b := a
		if p.eat('-') {
			if b, err = p.number(); err != nil {
				return 0, err
			}
			if b < a {
				return 0, p.errorf("range %d-%d is descending", a, b)
			}
		}
		if uint64(b-a) >= MaxXIDMapLen || n+uint64(b-a)+1 > MaxXIDMapLen { // the first, lest the sum wrap
			return 0, p.errorf("XID-map longer than %d XIDs", MaxXIDMapLen)
		}
		n += uint64(b-a) + 1
		ranges(a, b)
		if p.eat(';') {
			continue
		}
		var next XID
		if p.eat('|') {
			if next, err = p.number(); err != nil {
				return 0, err
			}
		}
		if !p.eat(')') {
			return 0, p.errorf("expected ';', '|' or ')'")
		}
		if p.i != len(s) {
			return 0, p.errorf("unexpected text after ')'")
		}
		return next, nil
	}
}

type xidParser struct {
	s string
	i int
}

func (p *xidParser) eat(c byte) bool {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *xidParser) number() (XID, error) {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	if start == p.i {
		return 0, p.errorf("expected an XID")
	}
	v, err := strconv.ParseUint(p.s[start:p.i], 10, 64)
	if err != nil || v == 0 {
		p.i = start
		return 0, p.errorf("invalid XID %q", p.s[start:min(len(p.s), start+24)])
	}
	return XID(v), nil
}

func (p *xidParser) errorf(format string, args ...any) error {
	return fmt.Errorf("XID-map %q, column %d: %s", truncate(p.s, 64), p.i+1, fmt.Sprintf(format, args...))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// SubtreeXIDMap returns the XIDs of n's subtree in post-order.
func SubtreeXIDMap(n *Node) XIDMap {
	var m XIDMap
	PostOrder(n, func(c *Node) { m.XIDs = append(m.XIDs, c.XID) })
	return m
}

// SetSubtreeXIDs gives n's subtree the XIDs of xids, in post-order. It fails,
// changing nothing, if the lengths differ or an XID is zero or repeated.
func SetSubtreeXIDs(n *Node, xids []XID) error {
	nodes := PostOrderNodes(n)
	if len(nodes) != len(xids) {
		return fmt.Errorf("XID-map has %d XIDs for a subtree of %d nodes", len(xids), len(nodes))
	}
	if err := CheckXIDs(xids); err != nil {
		return err
	}
	for i, c := range nodes {
		c.XID = xids[i]
	}
	return nil
}

// CheckXIDs returns an error naming the first XID of xids, in order, that
// is 0 or seen before, or nil if there is none. XIDs are mostly dense
// (post-order ranks, then the next ones allocated): a bit a possible XID,
// where they stay below a few times their number, and a map otherwise.
func CheckXIDs(xids []XID) error {
	var top XID
	for _, x := range xids {
		top = max(top, x)
	}
	if uint64(top) <= 8*uint64(len(xids))+1024 {
		seen := make([]uint64, top/64+1)
		for _, x := range xids {
			if x == 0 || seen[x/64]&(1<<(x%64)) != 0 {
				return xidError(x)
			}
			seen[x/64] |= 1 << (x % 64)
		}
		return nil
	}
	seen := make(map[XID]struct{}, len(xids))
	for _, x := range xids {
		if _, dup := seen[x]; dup || x == 0 {
			return xidError(x)
		}
		seen[x] = struct{}{}
	}
	return nil
}

// xidError is CheckXIDs' error for XID x.
func xidError(x XID) error {
	if x == 0 {
		return fmt.Errorf("XID-map contains XID 0")
	}
	return fmt.Errorf("XID-map repeats XID %d", x)
}
