// The dashboard's one script, progressive enhancement only: every page works without it.
// Served from the service itself (CSP script-src 'self'); no inline script anywhere.
'use strict';

document.addEventListener('DOMContentLoaded', function () {
  // Copy buttons: shown only where the script runs, next to the field they copy.
  document.querySelectorAll('[data-copy-target]').forEach(function (button) {
    var field = document.getElementById(button.getAttribute('data-copy-target'));
    var status = document.querySelector('[data-copy-status]');
    if (!field) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var done = function () {
        if (status) status.textContent = 'Copied to the clipboard.';
      };
      var fallback = function () {
        field.focus();
        field.select();
        if (status) status.textContent = 'Selected: press Ctrl+C (or Cmd+C) to copy.';
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, fallback);
      } else {
        fallback();
      }
    });
  });

  // The key field selects its whole value when focused, so a keyboard user copies it at once.
  document.querySelectorAll('[data-copy-source]').forEach(function (field) {
    field.addEventListener('focus', function () {
      field.select();
    });
  });
});

// Charts (dashboard-charts.ts): each canvas carries its figures as JSON in data-chart; Chart.js
// (window.Chart, loaded before this script on pages with a chart) draws them. Without it the
// table of figures beside each chart says the same.
document.addEventListener('DOMContentLoaded', function () {
  if (typeof window.Chart !== 'function') return;
  document.querySelectorAll('canvas[data-chart]').forEach(function (canvas) {
    var spec;
    try {
      spec = JSON.parse(canvas.getAttribute('data-chart'));
    } catch {
      return; // the table of figures stands in
    }
    var line = spec.kind === 'line';
    new window.Chart(canvas, {
      type: spec.kind,
      data: {
        labels: spec.labels,
        datasets: spec.series.map(function (series) {
          return {
            label: series.label,
            data: series.values,
            backgroundColor: series.color,
            borderColor: series.color,
            borderWidth: line ? 2 : 0,
            pointRadius: line ? 0 : undefined,
          };
        }),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        plugins: { legend: { position: 'bottom' } },
        scales: {
          x: { stacked: spec.stacked, grid: { display: false } },
          y: {
            stacked: spec.stacked,
            beginAtZero: true,
            ticks: { precision: 0 },
            title: { display: true, text: spec.unit },
          },
        },
      },
    });
  });
});

// Live figures (the console's Projections screen): a region with data-live-url is refreshed from
// that JSON every data-live-every milliseconds (console-operations.ts, LiveUpdate): texts by
// data-live-field, badges' data-state by data-live-badge, progress bars by data-live-progress,
// charts by canvas id. Without the script the page shows the figures of its load.
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('[data-live-url]').forEach(function (region) {
    var url = region.getAttribute('data-live-url');
    var every = Math.max(1000, Number(region.getAttribute('data-live-every')) || 5000);
    var status = region.querySelector('[data-live-status]');
    var apply = function (update) {
      Object.keys(update.fields || {}).forEach(function (key) {
        document.querySelectorAll('[data-live-field="' + CSS.escape(key) + '"]').forEach(function (el) {
          if (el.textContent !== update.fields[key]) el.textContent = update.fields[key];
        });
      });
      Object.keys(update.badges || {}).forEach(function (key) {
        document.querySelectorAll('[data-live-badge="' + CSS.escape(key) + '"]').forEach(function (el) {
          el.setAttribute('data-state', update.badges[key]);
        });
      });
      Object.keys(update.progress || {}).forEach(function (key) {
        document.querySelectorAll('[data-live-progress="' + CSS.escape(key) + '"]').forEach(function (el) {
          el.value = update.progress[key];
        });
      });
      Object.keys(update.charts || {}).forEach(function (id) {
        var canvas = document.getElementById(id);
        var chart = canvas && window.Chart && window.Chart.getChart(canvas);
        if (!chart) return;
        var spec = update.charts[id];
        chart.data.labels = spec.labels;
        spec.series.forEach(function (series, i) {
          if (chart.data.datasets[i]) chart.data.datasets[i].data = series.values;
        });
        chart.update('none');
      });
    };
    var poll = function () {
      fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then(function (update) {
          apply(update);
          if (status) status.textContent = 'Live: updated at ' + new Date().toISOString().slice(11, 19) + ' UTC.';
        })
        .catch(function () {
          if (status) status.textContent = 'Live updates stopped: reload the page.';
        })
        .finally(function () {
          setTimeout(poll, every);
        });
    };
    setTimeout(poll, every);
  });
});
