module github.com/vigil-web/vigil

go 1.26
