package com.example.minesweeper;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * 吉布斯采样器：在边界格的合法布雷空间做 MCMC 游走，
 * 统计每个格子取 1（是雷）的频率作为后验概率。
 */
public class GibbsSampler {

    /** 组合数缓存，避免重复计算 */
    private final Map<String, Double> combCache = new HashMap<>();
    private final Random random;

    public GibbsSampler(long seed) {
        this.random = new Random(seed);
    }

    /**
     * @param constraints 全部约束
     * @param samples     需要采集的有效样本数
     * @param burnIn      预热轮数
     * @return key = "r,c"，value = 该格是雷的概率
     */
    public Map<String, Double> estimate(List<Constraint> constraints, int samples, int burnIn) {
        // 1. 建立变量索引与"变量 → 约束"倒排
        Set<String> varSet = new HashSet<>();
        for (Constraint c : constraints) {
            for (int[] v : c.variables) varSet.add(key(v));
        }
        List<String> vars = new ArrayList<>(varSet);
        if (vars.isEmpty()) return new HashMap<>();

        Map<String, List<Constraint>> varToCons = new HashMap<>();
        for (Constraint c : constraints) {
            for (int[] v : c.variables) {
                varToCons.computeIfAbsent(key(v), k -> new ArrayList<>()).add(c);
            }
        }

        // 2. 初始化：用逐约束贪心得到一个近似可行起点
        Map<String, Integer> assign = new HashMap<>();
        for (String v : vars) assign.put(v, 0);
        for (Constraint c : constraints) {
            int have = countInConstraint(c, assign);
            int need = c.required - have;
            for (int[] v : c.variables) {
                if (need <= 0) break;
                if (assign.get(key(v)) == 0) {
                    assign.put(key(v), 1);
                    need--;
                }
            }
        }

        // 3. 采样主循环
        Map<String, Integer> hits = new HashMap<>();
        for (String v : vars) hits.put(v, 0);
        int collected = 0;
        int totalIters = burnIn + samples;

        for (int iter = 0; iter < totalIters; iter++) {
            for (String v : vars) {
                double p1 = conditionalProbOne(v, assign, varToCons.get(v));
                int newVal = random.nextDouble() < p1 ? 1 : 0;
                assign.put(v, newVal);
            }
            if (iter >= burnIn) {
                for (String v : vars) {
                    if (assign.get(v) == 1) hits.merge(v, 1, Integer::sum);
                }
                collected++;
            }
        }

        // 4. 归一化为概率
        Map<String, Double> prob = new HashMap<>();
        for (String v : vars) {
            prob.put(v, hits.get(v) / (double) Math.max(1, collected));
        }
        return prob;
    }

    /** 计算指定变量取 1 的条件概率 */
    private double conditionalProbOne(String var, Map<String, Integer> assign,
                                      List<Constraint> related) {
        if (related == null || related.isEmpty()) return 0.5;

        double w1 = 1.0, w0 = 1.0;   // 权重乘积
        for (Constraint c : related) {
            int sumOthers = 0, unknownOthers = 0;
            for (int[] v : c.variables) {
                String k = key(v);
                if (k.equals(var)) continue;
                unknownOthers++;
                if (assign.getOrDefault(k, 0) == 1) sumOthers++;
            }
            // x=1：剩余 unknownOthers 格放 required-sumOthers-1 个
            w1 *= comb(unknownOthers, c.required - sumOthers - 1);
            // x=0：放 required-sumOthers 个
            w0 *= comb(unknownOthers, c.required - sumOthers);
        }
        double total = w1 + w0;
        if (total <= 0) return 0.0;   // 两种取值都不可行，保持原值倾向
        return w1 / total;
    }

    private int countInConstraint(Constraint c, Map<String, Integer> assign) {
        int sum = 0;
        for (int[] v : c.variables) sum += assign.getOrDefault(key(v), 0);
        return sum;
    }

    /** 组合数 C(n,k)，越界返回 0 —— 非法配置权重为 0，自然被排除 */
    private double comb(int n, int k) {
        if (k < 0 || k > n) return 0.0;
        String cacheKey = n + ":" + k;
        Double cached = combCache.get(cacheKey);
        if (cached != null) return cached;
        double result = 1.0;
        for (int i = 0; i < k; i++) {
            result = result * (n - i) / (i + 1);
        }
        combCache.put(cacheKey, result);
        return result;
    }

    public static String key(int[] pos) {
        return pos[0] + "," + pos[1];
    }
}
