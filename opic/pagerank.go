package opic

import (
	"fmt"
	"math"
)

// PageRank computes off line, by power iteration, the fixpoint OPIC
// converges to: the importance of the real pages of g augmented with the
// virtual page of share alpha, which is PageRank with damping 1-alpha, the
// mass of dangling pages spread uniformly. It starts from the uniform
// vector and stops when the L1 change of an iteration is below tol or
// after maxIter iterations; it returns the vector (summing to 1) and the
// number of iterations. With alpha = 0 it is the plain power iteration,
// which converges on a strongly connected aperiodic graph.
func PageRank(g LinkGraph, alpha, tol float64, maxIter int) ([]float64, int, error) {
	n := g.Len()
	if n == 0 {
		return nil, 0, nil
	}
	if !(alpha >= 0 && alpha < 1) {
		return nil, 0, fmt.Errorf("opic: pagerank alpha %v: want 0 <= alpha < 1", alpha)
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	next := make([]float64, n)
	it := 0
	for it < maxIter {
		it++
		delta := PowerStep(g, alpha, x, next)
		x, next = next, x
		if delta < tol {
			break
		}
	}
	return x, it, nil
}

// PowerStep computes one iteration of PageRank's power iteration from x into
// next (both of length g.Len()) and returns the L1 distance between them.
// The bench uses it to charge the off-line computation n reads an
// iteration, as the seed does.
func PowerStep(g LinkGraph, alpha float64, x, next []float64) float64 {
	n := g.Len()
	clear(next)
	toV := 0.0
	for i := 0; i < n; i++ {
		links := g.Links(PageID(i))
		if len(links) == 0 {
			toV += x[i]
			continue
		}
		share := x[i] * (1 - alpha) / float64(len(links))
		toV += x[i] * alpha
		for _, j := range links {
			next[j] += share
		}
	}
	u := toV / float64(n)
	delta := 0.0
	for i := range next {
		next[i] += u
		delta += math.Abs(next[i] - x[i])
	}
	return delta
}
