package io.dssync.models;

import ai.djl.nn.Block;
import io.dssync.errors.Errors;
import java.util.List;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model registry: maps a {@link ModelSpec#name()} to the DJL block that implements it and to
 * its {@link LossKind} (which fixes loss and metric). Names:
 * <ul>
 *   <li>{@code mlp}, {@code cnn}: dense C x H x W inputs, classification;
 *   <li>{@code wrn-<depth>-<k>} (e.g. wrn-16-4): Wide ResNet, dense images, classification;
 *   <li>{@code bert-mlm} and {@code bert-cls}, optionally sized {@code -L<layers>-H<heads>-D<width>}
 *       (default L2-H2-D64): token ids; masked-LM pre-training, or classification from [CLS];
 *   <li>{@code deepfm}: click-log feature ids, binary (log-loss, AUC).
 * </ul>
 *
 * <p>To add a model, write a class with a builder and add one {@link Family} to {@link #FAMILIES}.
 * Blocks are returned uninitialised; the replica initialises the parameters from the spec's seed,
 * so builders must not draw random numbers themselves.
 */
public final class Models {
  /** A set of model names (one pattern), how to build them and their loss kind. */
  private record Family(String example, Pattern pattern, Input input, LossKind lossKind,
      BiFunction<ModelSpec, Matcher, Block> builder) {}

  /**
   * What a family's inputs are, checked against the spec before building: dense values (pixels),
   * token ids (1 x 1 x L), masked token ids with their targets (2 x 1 x L), or one global id per
   * categorical field (1 x 1 x F).
   */
  public enum Input { DENSE, TOKENS, MASKED_TOKENS, FIELD_IDS }

  private static final List<Family> FAMILIES = List.of(
      new Family(Mlp.NAME, Pattern.compile("mlp"), Input.DENSE, LossKind.CLASSIFICATION, (s, m) -> Mlp.build(s)),
      new Family(SmallCnn.NAME, Pattern.compile("cnn"), Input.DENSE, LossKind.CLASSIFICATION,
          (s, m) -> SmallCnn.build(s)),
      new Family("wrn-16-4", Pattern.compile("wrn-(\\d+)-(\\d+)"), Input.DENSE, LossKind.CLASSIFICATION,
          (s, m) -> WideResNet.build(s, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))),
      new Family(BertHeads.MLM, BertSize.pattern(BertHeads.MLM), Input.MASKED_TOKENS, LossKind.MASKED_LM,
          (s, m) -> new BertHeads.MaskedLm(BertSize.from(m, s.name()), s)),
      new Family(BertHeads.CLS, BertSize.pattern(BertHeads.CLS), Input.TOKENS, LossKind.CLASSIFICATION,
          (s, m) -> new BertHeads.Classifier(BertSize.from(m, s.name()), s)),
      new Family(DeepFm.NAME, Pattern.compile("deepfm"), Input.FIELD_IDS, LossKind.BINARY, (s, m) -> DeepFm.build(s)));

  /** Name patterns for messages and help. */
  static final String[] PATTERNS = {"mlp", "cnn", "wrn-<depth>-<k>", "bert-mlm[-L<layers>-H<heads>-D<width>]",
      "bert-cls[-L<layers>-H<heads>-D<width>]", "deepfm"};

  private Models() {}

  /** Builds the (uninitialised) block for {@code spec}, which takes (batch, C, H, W) input. */
  public static Block build(ModelSpec spec) {
    Family family = family(spec.name());
    Matcher m = family.pattern().matcher(spec.name());
    m.matches();
    checkShape(spec);
    return family.builder().apply(spec, m);
  }

  /** The loss kind (loss and metric) of the model called {@code name}. */
  public static LossKind lossKind(String name) {
    return family(name).lossKind();
  }

  /** The kind of input the model called {@code name} reads. */
  public static Input input(String name) {
    return family(name).input();
  }

  /** Whether {@code name} names a model (sizes are checked when it is built). */
  public static boolean isKnown(String name) {
    return name != null && FAMILIES.stream().anyMatch(f -> f.pattern().matcher(name).matches());
  }

  /** One example name per model family, in registration order. */
  public static String[] names() {
    return FAMILIES.stream().map(Family::example).toArray(String[]::new);
  }

  /** The name patterns ("wrn-<depth>-<k>", ...), for help texts and errors. */
  public static String[] patterns() {
    return PATTERNS.clone();
  }

  private static Family family(String name) {
    for (Family f : FAMILIES) {
      if (name != null && f.pattern().matcher(name).matches()) {
        return f;
      }
    }
    throw Errors.unknownName("model", String.valueOf(name), PATTERNS);
  }

  /** The checks of {@link #checkCommon} and those of the family of {@code spec.name()}: its inputs and task. */
  static void checkShape(ModelSpec spec) {
    Family family = family(spec.name());
    checkCommon(spec);
    switch (family.input()) {
      case DENSE -> { }
      case TOKENS -> ids(spec, 1, "token ids of 1 x 1 x L (one sequence per example)");
      case MASKED_TOKENS -> {
        ids(spec, 2, "2 x 1 x L (masked input ids, then targets: original id or -1)");
        if (spec.numClasses() != spec.vocabSize()) {
          throw Errors.invalidSetting("model.numClasses", spec.numClasses(),
              "a masked-LM predicts tokens, so numClasses must equal vocabSize " + spec.vocabSize(),
              "Load a masked-LM dataset (kjv-mlm), which sets both.");
        }
      }
      case FIELD_IDS -> {
        ids(spec, 1, "feature ids of 1 x 1 x F (one id per field)");
        if (spec.numClasses() != 2) {
          throw Errors.invalidSetting("model.numClasses", spec.numClasses(), "deepfm is a binary model: must be 2",
              "Use a click-log dataset with labels 0/1.");
        }
      }
      default -> throw new IllegalStateException(family.input().name());
    }
  }

  /**
   * What every model needs: a positive input shape, and for a loss of class labels at least two classes
   * (a binary task counts its two).
   */
  static void checkCommon(ModelSpec spec) {
    positive("model.channels", spec.channels());
    positive("model.height", spec.height());
    positive("model.width", spec.width());
    if (spec.lossKind().classLabels() && spec.numClasses() < 2) {
      throw Errors.invalidSetting("model.numClasses", spec.numClasses(), "a " + spec.lossKind().flagName()
          + " loss needs class labels, at least 2 classes", spec.numClasses() == 0
          ? "The labels are real values: choose a loss for them (--loss mse, l1, huber or multi-label)."
          : "Set it to the number of classes of the dataset (10 for Fashion-MNIST and CIFAR-10).");
    }
    if (!spec.lossKind().classLabels() && spec.numClasses() > 0 && spec.lossKind() != LossKind.CUSTOM) {
      throw Errors.invalidSetting("loss", spec.lossKind().flagName(), "it needs real-valued labels, but the data"
          + " has class labels (" + spec.numClasses() + " classes)", "Use --loss cross-entropy for class labels,"
          + " or give the data real-valued labels.");
    }
  }

  private static void ids(ModelSpec spec, int channels, String layout) {
    if (spec.vocabSize() < 2) {
      throw Errors.invalidSetting("model.vocabSize", spec.vocabSize(), "model " + spec.name()
          + " reads ids and needs vocabSize >= 2", "Use a text or click-log dataset (it sets vocabSize), or a"
          + " dense model (mlp, cnn, wrn-d-k) for images.");
    }
    if (spec.channels() != channels || spec.height() != 1) {
      throw Errors.invalidSetting("model input shape", spec.channels() + "x" + spec.height() + "x" + spec.width(),
          "model " + spec.name() + " needs " + layout, "Use a dataset encoded for this model.");
    }
  }

  private static void positive(String key, int value) {
    if (value < 1) {
      throw Errors.invalidSetting(key, value, "must be at least 1",
          "Set the input shape to the dataset's channels x height x width.");
    }
  }
}
