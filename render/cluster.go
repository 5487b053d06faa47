package render

import "unicode"

// MaxClusterRunes is how far ClusterCut looks, each way, for the edge of a
// character as a reader sees it; a longer cluster (a letter under dozens of
// combining marks) is cut where asked.
const MaxClusterRunes = 16

// ClusterCut returns i, or the nearest place before it (else after it,
// within MaxClusterRunes) where r can be cut without splitting a character
// as a reader sees it (ClusterBoundary); an i outside r is taken as its
// start or end. Every view that shortens a text cuts it here: the text
// view, the changes of an attribute, and vigil diff's summary; a cut
// under a hard limit (a notification's subject, a chat message) uses
// ClusterCutBefore or ClusterCutAfter.
//
// Where r is cut before its first rune, i is counted from that cut, which
// must itself be a boundary: a pair of regional indicators is counted from
// the start of their run in r.
func ClusterCut(r []rune, i int) int {
	i = min(max(i, 0), len(r))
	if c, ok := clusterBefore(r, i); ok {
		return c
	}
	if c, ok := clusterAfter(r, i); ok {
		return c
	}
	return i
}

// ClusterCutBefore is ClusterCut for a cut under a hard limit (a
// service's most characters): it returns the nearest place at or before
// i, within MaxClusterRunes, where r can be cut without splitting a
// character as a reader sees it, else i; never a place after i.
func ClusterCutBefore(r []rune, i int) int {
	i = min(max(i, 0), len(r))
	if c, ok := clusterBefore(r, i); ok {
		return c
	}
	return i
}

// ClusterCutAfter is ClusterCut for where the end of a text kept under a
// limit starts: it returns the nearest place at or after i, within
// MaxClusterRunes, where r can be cut without splitting a character as a
// reader sees it, else i; never a place before i.
func ClusterCutAfter(r []rune, i int) int {
	i = min(max(i, 0), len(r))
	if ClusterBoundary(r, i) {
		return i
	}
	if c, ok := clusterAfter(r, i); ok {
		return c
	}
	return i
}

// clusterBefore returns the nearest boundary at or before i, if one is
// within MaxClusterRunes.
func clusterBefore(r []rune, i int) (int, bool) {
	for d := 0; d <= MaxClusterRunes; d++ {
		if ClusterBoundary(r, i-d) {
			return max(i-d, 0), true
		}
	}
	return i, false
}

// clusterAfter returns the nearest boundary after i, if one is within
// MaxClusterRunes.
func clusterAfter(r []rune, i int) (int, bool) {
	for d := 1; d <= MaxClusterRunes; d++ {
		if ClusterBoundary(r, i+d) {
			return min(i+d, len(r)), true
		}
	}
	return i, false
}

// ClusterBoundary reports whether r can be cut before r[i] without
// splitting a character as a reader sees it: not before a rune that joins
// the one before it (a combining mark, a variation selector, an emoji
// modifier, a zero-width joiner or an emoji tag), nor just after a
// zero-width joiner, nor between the two regional indicators of a flag,
// paired from the start of their run (🇫🇷🇩🇪 is cut between FR and DE
// only). The start and the end of r, and any place outside it, are
// boundaries.
//
// This approximates the grapheme clusters of Unicode's UAX #29 with the
// standard library's tables, which is enough to keep a base letter with
// its accents, an emoji with its skin tone, variation selector and ZWJ
// sequence, and a flag whole; it takes no outside dependency for
// segmentation. A run of regional indicators is read back to its start,
// so the cost is the run's length.
func ClusterBoundary(r []rune, i int) bool {
	if i <= 0 || i >= len(r) {
		return true
	}
	if joins(r[i]) || r[i-1] == zwj {
		return false
	}
	if regional(r[i-1]) && regional(r[i]) {
		run := 0 // regional indicators before i
		for j := i - 1; j >= 0 && regional(r[j]); j-- {
			run++
		}
		return run%2 == 0
	}
	return true
}

// zwj is the zero-width joiner, which joins the emoji on either side of it.
const zwj = '\u200d'

// joins reports whether r belongs to the character before it: a combining
// mark, a variation selector, an emoji modifier (a skin tone), a
// zero-width joiner or an emoji tag (as in a subdivision's flag).
func joins(r rune) bool {
	switch {
	case r == zwj,
		0xFE00 <= r && r <= 0xFE0F,   // variation selectors
		0xE0100 <= r && r <= 0xE01EF, // variation selectors supplement
		0x1F3FB <= r && r <= 0x1F3FF, // emoji modifiers
		0xE0020 <= r && r <= 0xE007F: // tags
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc)
}

// regional reports whether r is a regional indicator, one of the letters
// a flag is written with in pairs (🇫🇷 is F R).
func regional(r rune) bool { return 0x1F1E6 <= r && r <= 0x1F1FF }
