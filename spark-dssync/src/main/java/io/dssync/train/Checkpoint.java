package io.dssync.train;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The training state after {@code stagesDone} stages: the consensus model and optimizer state, the
 * step count, and what is needed to replay the rest of the run identically (seed, settings). The
 * schedule depends only on (settings, step) and each worker's batches only on (seed, rank, step),
 * so resuming at {@code step} continues exactly where the run was.
 *
 * <p>Byte format (version 2), all big-endian: magic {@code DSSYNC-CKPT}, version, step, stages
 * done, total steps, run id, seed, optimizer steps, the settings as (name, value) text pairs, the
 * model ({@link CheckpointedModel} as UTF-8 JSON after an int length; 0 for none), the state and
 * the optimizer state as length-prefixed float arrays, the fit's progress ({@link FitProgress}: early stopping's
 * best score, stage, evaluations since and best model, the learning rate a callback set, the SWA mean and count),
 * then a SHA-256 of all bytes before it. A file whose digest does not match is corrupt or partial and is never
 * loaded. Version 1 is the same without the model and the fit's progress: it resumes as a fit that has decided
 * nothing yet, but exporting it needs the data's shape given again (the spec depends on the data), which is why
 * version 2 records it.
 */
public record Checkpoint(long step, int stagesDone, long totalSteps, String runId, long seed,
    Map<String, String> settings, float[] state, float[] optimizerState, long optimizerSteps,
    CheckpointedModel model, FitProgress fit) {
  static final String MAGIC = "DSSYNC-CKPT";
  /** The version this build writes; it reads every version up to it. */
  static final int FORMAT_VERSION = 2;
  private static final int DIGEST_BYTES = 32;

  /** A checkpoint that records no model and no decisions of the fit (as version 1 files do). */
  public Checkpoint(long step, int stagesDone, long totalSteps, String runId, long seed,
      Map<String, String> settings, float[] state, float[] optimizerState, long optimizerSteps) {
    this(step, stagesDone, totalSteps, runId, seed, settings, state, optimizerState, optimizerSteps, null,
        FitProgress.NONE);
  }

  /** The training state as the driver broadcasts it to start the next stage. */
  ConsensusState toConsensusState() {
    return new ConsensusState(state, optimizerState, optimizerSteps);
  }

  byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 4 * (state.length + optimizerState.length) + 4096);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeUTF(MAGIC);
      out.writeInt(FORMAT_VERSION);
      out.writeLong(step);
      out.writeInt(stagesDone);
      out.writeLong(totalSteps);
      out.writeUTF(runId);
      out.writeLong(seed);
      out.writeLong(optimizerSteps);
      out.writeInt(settings.size());
      for (Map.Entry<String, String> e : settings.entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue());
      }
      byte[] modelJson = model == null ? new byte[0] : model.toJson().getBytes(StandardCharsets.UTF_8);
      out.writeInt(modelJson.length);
      out.write(modelJson);
      FloatArrays.write(out, state);
      FloatArrays.write(out, optimizerState);
      fit.write(out);
      out.flush();
      byte[] digest = sha256(bytes.toByteArray(), bytes.size());
      out.write(digest);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("in-memory write failed", e); // cannot happen
    }
  }

  /** Parses and verifies {@code bytes}; throws {@link IOException} naming what is wrong. */
  static Checkpoint decode(byte[] bytes) throws IOException {
    if (bytes.length < DIGEST_BYTES) {
      throw new IOException("only " + bytes.length + " bytes: partial write");
    }
    int body = bytes.length - DIGEST_BYTES;
    byte[] expected = Arrays.copyOfRange(bytes, body, bytes.length);
    if (!MessageDigest.isEqual(expected, sha256(bytes, body))) {
      throw new IOException("SHA-256 mismatch: the file is corrupt or partially written");
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, body));
    if (!MAGIC.equals(in.readUTF())) {
      throw new IOException("not a dssync checkpoint");
    }
    int version = in.readInt();
    if (version < 1 || version > FORMAT_VERSION) {
      throw new IOException("format version " + version + ", this build reads versions 1 to " + FORMAT_VERSION);
    }
    long step = in.readLong();
    int stagesDone = in.readInt();
    long totalSteps = in.readLong();
    String runId = in.readUTF();
    long seed = in.readLong();
    long optimizerSteps = in.readLong();
    int count = in.readInt();
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      settings.put(in.readUTF(), in.readUTF());
    }
    CheckpointedModel model = version >= 2 ? readModel(in) : null;
    float[] state = FloatArrays.read(in, in.available() / Float.BYTES);
    float[] optimizer = FloatArrays.read(in, in.available() / Float.BYTES);
    FitProgress fit = version >= 2 ? FitProgress.read(in, in.available() / Float.BYTES) : FitProgress.NONE;
    return new Checkpoint(step, stagesDone, totalSteps, runId, seed, settings, state, optimizer, optimizerSteps,
        model, fit);
  }

  private static CheckpointedModel readModel(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("model record length " + length + " exceeds the " + in.available() + " bytes left");
    }
    return length == 0 ? null : CheckpointedModel.fromJson(new String(in.readNBytes(length), StandardCharsets.UTF_8));
  }

  private static byte[] sha256(byte[] bytes, int length) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(bytes, 0, length);
      return md.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
