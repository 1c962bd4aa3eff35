package io.etcdworkers.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * One PNG line chart of named series over time, drawn with JFreeChart headless. Series of one
 * run share a colour (their group); a total is drawn solid and its parts dashed or dotted.
 */
public final class LineChart {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 520;
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0x17becf), new Color(0x7f7f7f),
    };

    /** How a series is drawn. */
    public enum Line {
        SOLID,
        DASHED,
        DOTTED
    }

    private record Series(List<double[]> points, int group, Line line) {}

    private final String title;
    private final String yLabel;
    private final Map<String, Series> series = new LinkedHashMap<>();

    public LineChart(String title, String yLabel) {
        this.title = title;
        this.yLabel = yLabel;
    }

    /** Adds a series of {@code {seconds, value}} points, coloured by {@code group}. */
    public LineChart add(String name, List<double[]> points, int group, Line line) {
        series.put(name, new Series(points, group, line));
        return this;
    }

    public void write(Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYSeriesCollection data = new XYSeriesCollection();
        for (Map.Entry<String, Series> e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey(), false, true);
            e.getValue().points().forEach(p -> s.add(p[0], p[1]));
            data.addSeries(s);
        }
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        int i = 0;
        for (Series s : series.values()) {
            renderer.setSeriesPaint(i, COLORS[s.group() % COLORS.length]);
            renderer.setSeriesStroke(
                    i,
                    switch (s.line()) {
                        case SOLID -> new BasicStroke(2f);
                        case DASHED ->
                            new BasicStroke(
                                    1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 4f}, 0f);
                        case DOTTED ->
                            new BasicStroke(
                                    1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {1f, 4f}, 0f);
                    });
            i++;
        }
        NumberAxis x = new NumberAxis("seconds since the worker started");
        NumberAxis y = new NumberAxis(yLabel);
        y.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }
}
