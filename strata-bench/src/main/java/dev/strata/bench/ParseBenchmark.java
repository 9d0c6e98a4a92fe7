package dev.strata.bench;

import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.NativeSyntax;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Scan + parse throughput of the native syntax over the whole shared corpus (every .tf file, held in
 * memory). One operation parses every file once; MB/s = corpus bytes / time per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xss8m"})
public class ParseBenchmark {
    List<byte[]> files;
    List<String> names;
    long totalBytes;

    @Setup(Level.Trial)
    public void load() {
        Path corpus = Path.of(System.getProperty("strata.corpus", "../shared/corpus/hcl"));
        try (Stream<Path> s = Files.walk(corpus)) {
            List<Path> paths =
                    s.filter(p -> p.toString().endsWith(".tf")).sorted().toList();
            files = paths.stream().map(ParseBenchmark::read).toList();
            names = paths.stream().map(p -> corpus.relativize(p).toString()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        totalBytes = files.stream().mapToLong(b -> b.length).sum();
        if (files.isEmpty()) {
            throw new IllegalStateException("no .tf files under " + corpus.toAbsolutePath());
        }
        System.out.printf("%ncorpus: %d files, %d bytes%n", files.size(), totalBytes);
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reports corpus bytes per operation, so throughput can be computed from the score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;
    }

    @Benchmark
    public void parseCorpus(Bytes counter, Blackhole bh) {
        for (int i = 0; i < files.size(); i++) {
            Result<HclFile> r = NativeSyntax.parseConfig(files.get(i), names.get(i));
            bh.consume(r);
        }
        counter.bytes += totalBytes;
    }
}
