// tools/tune/tune.cpp: klinzha-tune, the evaluation's tuner (the Texel method, issue 9).
//
//   klinzha-tune extract RECORD... -o DATA   quiet play positions of game records, with the
//                                            result for each colour
//   klinzha-tune fit DATA [-o HEADER]        fit the weights (eval/evaluate.h, enum Weight)
//                                            to the results; write eval/weights.h
//
// DATA lines: `<position string>|<g> <b> <k>`, results 1 (won), 0.5 (drawn), 0 (lost), - (not
// playing). A position is quiet when the player to move has no capture and its heart cannot
// be taken next. Fit: the probability of a win is modelled as 1 / (1 + 10^(-K e / 400)), e the
// evaluation for that colour (centi-pawns); K is fitted first with the current weights, then
// the weights minimise the mean squared error by Adam on the gradient (the evaluation is
// linear in the weights but for the terms no weight scales, the heart points and the hunt
// of three-player games: each sample's constant is its evaluation under zero weights, and
// its coefficients the change under each unit weight), with
// a weak prior towards the current weights and every weight kept at zero or above.
// Sources: SPEC 10 (position strings), records as klinzha-match writes them (docs/match.md).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "engine/version.h"
#include "eval/evaluate.h"

using namespace klinzha;

namespace {

constexpr const char* kUsage =
    "usage: klinzha-tune extract RECORD... -o DATA\n"
    "       klinzha-tune fit DATA [-o HEADER] [--iterations N]\n";

/// The command line was wrong: the usage on standard error, exit status 2.
int usage() {
    std::cerr << kUsage;
    return 2;
}

/// `--help`: what the tuner does and its usage on standard output (help2man reads it).
int help() {
    std::cout
        << "klinzha-tune: tunes the evaluation's weights by the Texel method (docs/search.md)\n\n"
        << kUsage
        << "\n  extract   the quiet play positions of game records (PGN, as klinzha-match\n"
           "            writes them) with each colour's result, into DATA\n"
           "  fit       fits the weights to the results and writes them as a C++ header\n"
           "            (default eval/weights.h)\n"
           "  --iterations N   Adam steps of the fit (default 3000)\n"
           "  --help, -h       show this help\n"
           "  --version        print the version\n";
    return 0;
}

bool quiet(const Position& p) {
    if (p.phase() != Phase::Play || p.game_over()) return false;
    if (heart_attacked(p, p.army(p.to_move()))) return false;
    MoveList l;
    generate_legal(p, l);
    if (l.size == 0) return false;
    for (Move m : l)
        if (p.is_capture(m)) return false;
    return true;
}

int extract(const std::vector<std::string>& files, const std::string& out_path) {
    std::ofstream out(out_path);
    if (!out) {
        std::cerr << "extract: cannot write " << out_path << "\n";
        return 2;
    }
    std::size_t games = 0, positions = 0, skipped = 0;
    for (const auto& f : files) {
        std::ifstream in(f);
        if (!in) {
            std::cerr << "extract: cannot read " << f << "\n";
            return 2;
        }
        for (const auto& g : read_records(in)) {
            int players = 2;
            if (auto it = g.tags.find("Players"); it != g.tags.end())
                players = std::atoi(it->second.c_str());
            if (auto it = g.tags.find("FEN"); it != g.tags.end() && !it->second.empty())
                players = it->second[0] == '3' ? 3 : 2;
            const auto res = result_scores(g.result, players);
            const Replay r = replay(g, Rules{}, players, false);
            if (res.empty() || !r.error.empty()) {
                ++skipped;
                continue;
            }
            ++games;
            for (const auto& fen : r.fens) {
                Position p;
                if (p.set(fen, r.start.rules())) continue;
                if (!quiet(p)) continue;
                out << fen << '|';
                for (int c = 0; c < kColours; ++c)
                    out << (c ? " " : "")
                        << (c < players && p.is_in(Colour(c)) ? std::to_string(res[c]).substr(0, 3)
                                                              : "-");
                out << '\n';
                ++positions;
            }
        }
    }
    std::cout << "games " << games << ", skipped " << skipped << ", quiet positions " << positions
              << "\n";
    return 0;
}

struct Sample {
    std::vector<double> f;  // coefficient of each weight in the evaluation for this colour
    double base = 0;        // what no weight scales (heart points, hunt), centi-pawns
    double result;
};

/// A sample's evaluation under weights w (centi-pawns): its constant and the weighted sum.
double value(const Sample& x, const std::vector<double>& w) {
    double e = x.base;
    for (std::size_t i = 0; i < w.size(); ++i) e += x.f[i] * w[i];
    return e;
}

double sigmoid(double e, double k) {
    return 1.0 / (1.0 + std::pow(10.0, -k * e / 400.0));
}

double error(const std::vector<Sample>& s, const std::vector<double>& w, double k) {
    double sum = 0;
    for (const auto& x : s) {
        const double d = x.result - sigmoid(value(x, w), k);
        sum += d * d;
    }
    return sum / double(s.size());
}

int fit(const std::string& data, const std::string& header, int iterations) {
    std::ifstream in(data);
    if (!in) {
        std::cerr << "fit: cannot read " << data << "\n";
        return 2;
    }
    std::vector<Sample> samples;
    constexpr int kScale = 1024;
    constexpr double kPrior = 2e-7;
    std::string line;
    while (std::getline(in, line)) {
        const auto bar = line.find('|');
        if (bar == std::string::npos) continue;
        Position p;
        if (p.set(line.substr(0, bar), Rules{})) continue;
        std::istringstream r(line.substr(bar + 1));
        for (int c = 0; c < kColours; ++c) {
            std::string v;
            r >> v;
            if (v.empty() || v == "-" || !p.is_in(Colour(c))) continue;
            Sample s;
            s.result = std::atof(v.c_str());
            s.base = eval::evaluate_with(p, Colour(c), eval::WeightTable{});
            for (int i = 0; i < eval::kWeightCount; ++i) {
                eval::WeightTable unit{};
                unit[std::size_t(i)] = kScale;
                s.f.push_back((eval::evaluate_with(p, Colour(c), unit) - s.base) / double(kScale));
            }
            samples.push_back(std::move(s));
        }
    }
    if (samples.empty()) {
        std::cerr << "fit: no samples in " << data << "\n";
        return 2;
    }
    std::vector<double> w(eval::kWeights.begin(), eval::kWeights.end());
    // K: golden-section search on the error with the current weights.
    double lo = 0.05, hi = 4.0;
    for (int i = 0; i < 60; ++i) {
        const double a = lo + (hi - lo) * 0.382, b = lo + (hi - lo) * 0.618;
        if (error(samples, w, a) < error(samples, w, b))
            hi = b;
        else
            lo = a;
    }
    const double k = (lo + hi) / 2;
    const double before = error(samples, w, k);
    std::cout << "samples " << samples.size() << ", K " << k << ", error before " << before << "\n";
    // Adam on the mean squared error.
    const std::size_t n = w.size();
    std::vector<double> m(n, 0), v(n, 0), g(n);
    const double lr = 1.0, b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const double c = std::log(10.0) * k / 400.0;
    for (int it = 1; it <= iterations; ++it) {
        std::fill(g.begin(), g.end(), 0.0);
        for (const auto& x : samples) {
            const double s = sigmoid(value(x, w), k);
            const double common = -2.0 * (x.result - s) * s * (1 - s) * c;
            for (std::size_t i = 0; i < n; ++i) g[i] += common * x.f[i];
        }
        // A weak prior towards the current weights (lambda per cp^2): with little data the
        // error surface is flat along some weights, and they should then stay put.
        for (std::size_t i = 0; i < n; ++i)
            g[i] += 2.0 * kPrior * (w[i] - double(eval::kWeights[i])) * double(samples.size());
        for (std::size_t i = 0; i < n; ++i) {
            g[i] /= double(samples.size());
            m[i] = b1 * m[i] + (1 - b1) * g[i];
            v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
            const double mh = m[i] / (1 - std::pow(b1, it)), vh = v[i] / (1 - std::pow(b2, it));
            w[i] -= lr * mh / (std::sqrt(vh) + eps);
            w[i] = std::max(0.0, w[i]);  // every term keeps its sign
        }
        if (it % 500 == 0)
            std::cout << "iteration " << it << ", error " << error(samples, w, k) << "\n";
    }
    eval::WeightTable tuned{};
    for (std::size_t i = 0; i < n; ++i) tuned[i] = int(std::lround(w[i]));
    std::vector<double> rounded(tuned.begin(), tuned.end());
    std::cout << "error after " << error(samples, rounded, k) << "\n";
    for (std::size_t i = 0; i < n; ++i)
        std::cout << "  " << eval::kWeightNames[i] << ": " << eval::kWeights[i] << " -> "
                  << tuned[i] << "\n";
    if (header.empty()) return 0;
    std::ofstream out(header);
    out << "// eval/weights.h: the evaluation's weights (eval/evaluate.h, enum Weight), in "
           "centi-pawns.\n"
           "// Written by `klinzha-tune fit` (tools/tune/, the Texel method) from "
        << samples.size() << " samples:\n// K " << k << ", error " << before << " -> "
        << error(samples, rounded, k)
        << ". Edit by re-tuning.\n#pragma once\n\nnamespace klinzha::eval {\n\ninline constexpr "
           "WeightTable kWeights = {\n";
    for (std::size_t i = 0; i < n; ++i)
        out << "    " << tuned[i] << ",  // " << eval::kWeightNames[i] << "\n";
    out << "};\n\n}  // namespace klinzha::eval\n";
    std::cout << "wrote " << header << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h"))
        return help();
    if (argc == 2 && std::string(argv[1]) == "--version") {
        std::cout << "klinzha-tune " << version() << "\n";
        return 0;
    }
    if (argc < 3) return usage();
    const std::string cmd = argv[1];
    std::vector<std::string> files;
    std::string out;
    int iterations = 3000;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-o" && i + 1 < argc)
            out = argv[++i];
        else if (a == "--iterations" && i + 1 < argc)
            iterations = std::atoi(argv[++i]);
        else
            files.push_back(a);
    }
    if (cmd == "extract") {
        if (files.empty() || out.empty()) return usage();
        return extract(files, out);
    }
    if (cmd == "fit") {
        if (files.size() != 1 || iterations < 1) return usage();
        return fit(files[0], out, iterations);
    }
    return usage();
}
