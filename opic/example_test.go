package opic_test

import (
	"bytes"
	"fmt"
	"time"

	"github.com/vigil-web/vigil/opic"
)

// A crawl reads pages as the Greedy policy chooses them and hands OPIC the
// out-links of each page read; OPIC never stores the graph.
func Example() {
	// The note's 3-page graph: A→B, A→C, B→C, C→A.
	links := [][]opic.PageID{{1, 2}, {2}, {0}}
	o, err := opic.New(3, opic.Config{}) // α = 0: the seed's Fig. 7.1
	if err != nil {
		panic(err)
	}
	crawl := opic.NewGreedy(o)
	for range 3000 {
		p, _ := crawl.Next()
		if err := o.Read(p, links[p]); err != nil {
			panic(err)
		}
	}
	for p, name := range []string{"A", "B", "C"} {
		fmt.Printf("%s %.3f\n", name, o.Importance(opic.PageID(p)))
	}
	// Output:
	// A 0.400
	// B 0.200
	// C 0.400
}

// With a virtual page of share α = 0.15, OPIC converges to PageRank with
// damping 0.85, dangling pages included.
func ExamplePageRank() {
	g, _ := opic.NewGraph(4, []opic.Edge{{From: 0, To: 1}, {From: 0, To: 2}, {From: 1, To: 2}, {From: 3, To: 2}})
	pr, _, _ := opic.PageRank(g, opic.DefaultAlpha, 1e-12, 1000)
	o, _ := opic.New(g.Len(), opic.Config{Alpha: opic.DefaultAlpha})
	crawl := opic.NewGreedy(o)
	for range 5000 {
		p, _ := crawl.Next()
		o.Read(p, g.Links(p))
	}
	est := o.Importances(nil, opic.EstimatePropagated)
	for p := range pr {
		fmt.Printf("p%d PageRank %.3f OPIC %.3f\n", p+1, pr[p], est[p])
	}
	// Output:
	// p1 PageRank 0.145 OPIC 0.145
	// p2 PageRank 0.206 OPIC 0.206
	// p3 PageRank 0.504 OPIC 0.504
	// p4 PageRank 0.145 OPIC 0.145
}

// The BnF refresh order: importance × days since the last visit × change
// rate, divided by the pages a visit costs.
func ExampleRefreshOrder() {
	now := time.Date(2002, 4, 10, 0, 0, 0, 0, time.UTC)
	days := func(n int) time.Time { return now.AddDate(0, 0, -n) }
	sites := []opic.SiteState{
		{Importance: 0.02, ChangeRate: 186.3, LastVisit: days(10), Pages: 1000},
		{Importance: 0.001, ChangeRate: 365, LastVisit: days(60), Pages: 50},
		{Importance: 0.05, ChangeRate: 2, LastVisit: days(100), Pages: 20000},
	}
	for _, s := range opic.RefreshOrder(sites, now) {
		fmt.Printf("site %c rho %.4f\n", 'A'+s, opic.Rho(sites[s], now))
	}
	// Output:
	// site B rho 0.4380
	// site A rho 0.0373
	// site C rho 0.0005
}

// A crawler stops and resumes: the state is 20 bytes a page.
func ExampleDecode() {
	o, _ := opic.New(1000, opic.Config{Alpha: opic.DefaultAlpha, History: opic.Interpolation{Window: 4}})
	var buf bytes.Buffer
	n, _ := o.WriteTo(&buf)
	resumed, err := opic.Decode(&buf)
	fmt.Println(n, resumed.Len(), err)
	// Output:
	// 20072 1000 <nil>
}
