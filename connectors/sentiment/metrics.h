#pragma once

#include "connectors/sentiment/sentence.h"

#include <array>
#include <cstdint>

/// Model quality against human ground truth (TR-4910 "Validation results").
namespace strata::sentiment {

/// Precision, recall and F1 of one label (one-vs-rest). A ratio whose denominator is 0 is 0
/// (scikit-learn's zero_division=0), so a label never predicted has precision 0.
struct LabelScores
{
    double precision = 0;
    double recall = 0;
    double f1 = 0;
    std::int64_t support = 0;   ///< sentences whose ground truth is this label
    std::int64_t predicted = 0; ///< sentences predicted as this label
};

/// Accumulates sentences that carry ground truth; others are ignored.
class Evaluation
{
public:
    void add(const Sentence &sentence);
    void add(Label predicted, Label truth);

    /// confusion()[truth][predicted], indices by static_cast<int>(Label).
    [[nodiscard]] const std::array<std::array<std::int64_t, 3>, 3> &confusion() const { return m_confusion; }
    [[nodiscard]] std::int64_t count() const { return m_count; }
    [[nodiscard]] LabelScores scores(Label label) const;
    /// Correct predictions / count (0 when empty).
    [[nodiscard]] double accuracy() const;
    /// Unweighted mean of the three F1 scores.
    [[nodiscard]] double macroF1() const;
    /// TR-4910's pipeline sentiment metric, MEAN(DIFF(GT_sentiment, ASR_sentiment)) averaged
    /// across all sentences: mean of labelScore(predicted) - labelScore(truth) (positive = +1,
    /// neutral 0, negative -1), so > 0 means the model reads calls more positively than people
    /// do. 0 when empty.
    [[nodiscard]] double meanSentimentDifference() const;
    /// Mean of |predicted - truth| (how far off, whatever the direction).
    [[nodiscard]] double meanAbsoluteSentimentDifference() const;

private:
    std::array<std::array<std::int64_t, 3>, 3> m_confusion{};
    std::int64_t m_count = 0;
    std::int64_t m_differenceSum = 0;
    std::int64_t m_absoluteDifferenceSum = 0;
};

} // namespace strata::sentiment
