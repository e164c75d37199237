#include "connectors/sentiment/metrics.h"

#include <cstdlib>

namespace strata::sentiment {

void Evaluation::add(const Sentence &sentence)
{
    if (sentence.groundTruth) {
        add(sentence.label, *sentence.groundTruth);
    }
}

void Evaluation::add(Label predicted, Label truth)
{
    ++m_confusion[static_cast<int>(truth)][static_cast<int>(predicted)];
    ++m_count;
    const int difference = labelScore(predicted) - labelScore(truth);
    m_differenceSum += difference;
    m_absoluteDifferenceSum += std::abs(difference);
}

LabelScores Evaluation::scores(Label label) const
{
    const int l = static_cast<int>(label);
    LabelScores s;
    const std::int64_t truePositives = m_confusion[l][l];
    for (int other = 0; other < 3; ++other) {
        s.support += m_confusion[l][other];
        s.predicted += m_confusion[other][l];
    }
    s.precision = s.predicted > 0 ? double(truePositives) / double(s.predicted) : 0.0;
    s.recall = s.support > 0 ? double(truePositives) / double(s.support) : 0.0;
    s.f1 = s.precision + s.recall > 0 ? 2.0 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
    return s;
}

double Evaluation::accuracy() const
{
    if (m_count == 0) {
        return 0;
    }
    std::int64_t correct = 0;
    for (int l = 0; l < 3; ++l) {
        correct += m_confusion[l][l];
    }
    return double(correct) / double(m_count);
}

double Evaluation::macroF1() const
{
    double sum = 0;
    for (Label label : kLabels) {
        sum += scores(label).f1;
    }
    return sum / 3.0;
}

double Evaluation::meanSentimentDifference() const
{
    return m_count > 0 ? double(m_differenceSum) / double(m_count) : 0.0;
}

double Evaluation::meanAbsoluteSentimentDifference() const
{
    return m_count > 0 ? double(m_absoluteDifferenceSum) / double(m_count) : 0.0;
}

} // namespace strata::sentiment
