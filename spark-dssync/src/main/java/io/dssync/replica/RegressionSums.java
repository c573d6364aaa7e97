package io.dssync.replica;

/** Running sums of predictions against real labels, per output, for R² over all examples added. */
final class RegressionSums {
  private final int width;
  private final double[] sum;
  private final double[] sumSquares;
  private final double[] squaredErrors;
  private long count;

  RegressionSums(int width) {
    this.width = width;
    this.sum = new double[width];
    this.sumSquares = new double[width];
    this.squaredErrors = new double[width];
  }

  /** Adds {@code n} examples: predictions row-major from 0, labels row-major from {@code labelsFrom}. */
  void add(float[] predictions, float[] labels, int labelsFrom, int n) {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < width; j++) {
        double y = labels[labelsFrom + i * width + j];
        double e = predictions[i * width + j] - y;
        sum[j] += y;
        sumSquares[j] += y * y;
        squaredErrors[j] += e * e;
      }
    }
    count += n;
  }

  long count() {
    return count;
  }

  /** 1 - SSE/SST per output, averaged over outputs; an output whose labels are all equal counts as 0. */
  double r2() {
    double total = 0;
    for (int j = 0; j < width; j++) {
      double sst = sumSquares[j] - sum[j] * sum[j] / count;
      total += sst > 0 ? 1 - squaredErrors[j] / sst : 0;
    }
    return total / width;
  }
}
