package treediff

import (
	"slices"
	"testing"
)

// TestLongestIncreasing runs every case with one scratch, as a diff does:
// nothing of a call may leak into the next.
func TestLongestIncreasing(t *testing.T) {
	var s increasing
	for _, tc := range []struct {
		second []int32 // the pairs' second elements; their first is their index
		want   []int32 // indexes of the pairs kept
	}{
		{[]int32{0, 1, 2, 3}, []int32{0, 1, 2, 3}},
		{[]int32{3, 0, 1, 2}, []int32{1, 2, 3}},
		{[]int32{1, 2, 0}, []int32{0, 1}},
		{[]int32{5}, []int32{0}},
		{nil, nil},
		{[]int32{4, 3, 2, 1, 0}, []int32{4}},
		{[]int32{0, 9, 1, 8, 2, 7, 3}, []int32{0, 2, 4, 6}},
	} {
		pairs := make([][2]int32, len(tc.second))
		for i, v := range tc.second {
			pairs[i] = [2]int32{int32(i), v}
		}
		var got []int32
		for _, p := range s.longest(pairs) {
			got = append(got, p[0])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: kept %v, want %v", tc.second, got, tc.want)
		}
	}
}
