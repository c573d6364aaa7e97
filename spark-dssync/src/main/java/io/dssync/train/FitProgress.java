package io.dssync.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * What a fit has gathered beyond its consensus and that a resumed run must continue: early stopping's progress,
 * the learning rate a callback set (NaN when none did), and the SWA mean with the number of models in it. Part of
 * every checkpoint.
 */
record FitProgress(EarlyStopping.Progress earlyStop, double learningRateOverride, float[] swaMean, int swaCount) {
  static final FitProgress NONE = new FitProgress(EarlyStopping.Progress.NONE, Double.NaN, new float[0], 0);

  void write(DataOutput out) throws IOException {
    out.writeDouble(earlyStop.bestScore());
    out.writeInt(earlyStop.bestStage());
    out.writeInt(earlyStop.evaluationsSinceBest());
    FloatArrays.write(out, earlyStop.bestModel());
    out.writeDouble(learningRateOverride);
    FloatArrays.write(out, swaMean);
    out.writeInt(swaCount);
  }

  /** Reads what {@link #write} wrote; {@code maxFloats} bounds the best model's declared length. */
  static FitProgress read(DataInput in, long maxFloats) throws IOException {
    double bestScore = in.readDouble();
    int bestStage = in.readInt();
    int since = in.readInt();
    float[] bestModel = FloatArrays.read(in, maxFloats);
    double learningRate = in.readDouble();
    float[] swaMean = FloatArrays.read(in, maxFloats);
    int swaCount = in.readInt();
    return new FitProgress(new EarlyStopping.Progress(bestScore, bestStage, since, bestModel), learningRate, swaMean,
        swaCount);
  }
}
