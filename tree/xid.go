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
func ParseXIDMap(s string) (XIDMap, error) {
	var m XIDMap
	p := xidParser{s: s}
	if !p.eat('(') {
		return m, p.errorf("expected '('")
	}
	if p.eat(')') {
		if p.i != len(s) {
			return m, p.errorf("unexpected text after ')'")
		}
		return m, nil
	}
	for {
		a, err := p.number()
		if err != nil {
			return m, err
		}
		b := a
		if p.eat('-') {
			if b, err = p.number(); err != nil {
				return m, err
			}
			if b < a {
				return m, p.errorf("range %d-%d is descending", a, b)
			}
		}
		if uint64(len(m.XIDs))+uint64(b-a)+1 > MaxXIDMapLen {
			return m, p.errorf("XID-map longer than %d XIDs", MaxXIDMapLen)
		}
		for x := a; ; x++ {
			m.XIDs = append(m.XIDs, x)
			if x == b {
				break
			}
		}
		if p.eat(';') {
			continue
		}
		if p.eat('|') {
			if m.Next, err = p.number(); err != nil {
				return m, err
			}
		}
		if !p.eat(')') {
			return m, p.errorf("expected ';', '|' or ')'")
		}
		if p.i != len(s) {
			return m, p.errorf("unexpected text after ')'")
		}
		return m, nil
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
	seen := make(map[XID]struct{}, len(xids))
	for _, x := range xids {
		if x == 0 {
			return fmt.Errorf("XID-map contains XID 0")
		}
		if _, dup := seen[x]; dup {
			return fmt.Errorf("XID-map repeats XID %d", x)
		}
		seen[x] = struct{}{}
	}
	for i, c := range nodes {
		c.XID = xids[i]
	}
	return nil
}
