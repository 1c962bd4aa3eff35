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
 * One PNG line chart of named series over time, drawn with JFreeChart headless. Series whose
 * name ends in {@code (dashed)} are drawn dashed, so the parts of a total can sit beside it.
 */
public final class LineChart {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 520;
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0x17becf), new Color(0x7f7f7f),
    };

    private final String title;
    private final String yLabel;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    public LineChart(String title, String yLabel) {
        this.title = title;
        this.yLabel = yLabel;
    }

    /** Adds a series of {@code {seconds, value}} points. */
    public LineChart add(String name, List<double[]> points) {
        series.put(name, points);
        return this;
    }

    public void write(Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYSeriesCollection data = new XYSeriesCollection();
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey(), false, true);
            e.getValue().forEach(p -> s.add(p[0], p[1]));
            data.addSeries(s);
        }
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        int i = 0;
        int color = 0;
        for (String name : series.keySet()) {
            boolean dashed = name.endsWith("(dashed)");
            renderer.setSeriesPaint(i, COLORS[color % COLORS.length]);
            renderer.setSeriesStroke(i, dashed
                    ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f)
                    : new BasicStroke(2f));
            color++;
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
